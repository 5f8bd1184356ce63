-- CreateEnum
CREATE TYPE "CredentialAuthMethod" AS ENUM ('CLIENT_SECRET', 'PRIVATE_KEY_JWT', 'FEDERATED');

-- AlterTable
ALTER TABLE "Credential" ADD COLUMN     "authMethod" "CredentialAuthMethod" NOT NULL DEFAULT 'CLIENT_SECRET',
ADD COLUMN     "jwks" JSONB,
ADD COLUMN     "jwksUri" TEXT,
ADD COLUMN     "trustAudience" TEXT,
ADD COLUMN     "trustIssuer" TEXT,
ADD COLUMN     "trustSubject" TEXT;
