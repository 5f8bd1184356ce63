-- AlterTable
ALTER TABLE "Credential" ADD COLUMN     "rateLimitBurst" INTEGER,
ADD COLUMN     "rateLimitPerSecond" INTEGER;
