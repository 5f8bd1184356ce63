-- AlterTable
ALTER TABLE "Environment" ADD COLUMN     "dpopNonce" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "requireDpop" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Credential" ADD COLUMN     "requireDpop" BOOLEAN NOT NULL DEFAULT false;
