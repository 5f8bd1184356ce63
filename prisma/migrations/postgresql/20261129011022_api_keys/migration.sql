-- AlterTable
ALTER TABLE "Api" ADD COLUMN     "authentication" TEXT NOT NULL DEFAULT 'oauth2';

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

-- The gateway keeps API keys as it keeps secrets (prisma/migrations/postgresql/*_gateway_changes):
-- every change notifies but updates of lastUsedAt and the expiry notices, which change nothing it keeps.
CREATE TRIGGER "ApiKey_gateway_changes" AFTER INSERT OR DELETE OR UPDATE OF "credentialId", "hash", "expiresAt", "revokedAt" ON "ApiKey"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();
