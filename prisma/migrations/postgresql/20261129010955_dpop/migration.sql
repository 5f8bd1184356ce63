-- AlterTable
ALTER TABLE "Environment" ADD COLUMN     "dpopNonce" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "requireDpop" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Api" ADD COLUMN     "authentication" TEXT NOT NULL DEFAULT 'oauth2';

-- AlterTable
ALTER TABLE "Credential" ADD COLUMN     "requireDpop" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),
    "lastUsedAt" TIMESTAMP(3),
    "weekNoticeSentAt" TIMESTAMP(3),
    "dayNoticeSentAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

-- CreateIndex
CREATE INDEX "ApiKey_credentialId_idx" ON "ApiKey"("credentialId");

-- CreateIndex
CREATE INDEX "ApiKey_expiresAt_idx" ON "ApiKey"("expiresAt");

-- AddForeignKey
ALTER TABLE "ApiKey" ADD CONSTRAINT "ApiKey_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE CASCADE ON UPDATE CASCADE;
