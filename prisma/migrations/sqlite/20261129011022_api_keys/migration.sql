-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "credentialId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "hint" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME,
    "revokedAt" DATETIME,
    "lastUsedAt" DATETIME,
    "weekNoticeSentAt" DATETIME,
    "dayNoticeSentAt" DATETIME,
    CONSTRAINT "ApiKey_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Api" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "tags" JSONB NOT NULL,
    "kind" TEXT NOT NULL,
    "isPublic" BOOLEAN NOT NULL DEFAULT false,
    "credentialType" TEXT,
    "openapiDocument" TEXT,
    "changelog" JSONB NOT NULL,
    "guides" JSONB,
    "policies" JSONB,
    "authentication" TEXT NOT NULL DEFAULT 'oauth2',
    "releasedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Api" ("changelog", "createdAt", "credentialType", "description", "guides", "id", "isPublic", "kind", "name", "openapiDocument", "policies", "releasedAt", "slug", "summary", "tags", "updatedAt", "version") SELECT "changelog", "createdAt", "credentialType", "description", "guides", "id", "isPublic", "kind", "name", "openapiDocument", "policies", "releasedAt", "slug", "summary", "tags", "updatedAt", "version" FROM "Api";
DROP TABLE "Api";
ALTER TABLE "new_Api" RENAME TO "Api";
CREATE UNIQUE INDEX "Api_slug_key" ON "Api"("slug");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

-- CreateIndex
CREATE INDEX "ApiKey_credentialId_idx" ON "ApiKey"("credentialId");

-- CreateIndex
CREATE INDEX "ApiKey_expiresAt_idx" ON "ApiKey"("expiresAt");

-- The gateway keeps API keys as it keeps secrets (prisma/migrations/sqlite/*_gateway_changes): every
-- change counts but updates of lastUsedAt and the expiry notices, which change nothing it keeps.
-- Redefining "Api" above dropped its triggers; they are created again.
CREATE TRIGGER "ApiKey_gateway_changes_insert" AFTER INSERT ON "ApiKey" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiKey_gateway_changes_delete" AFTER DELETE ON "ApiKey" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiKey_gateway_changes_update" AFTER UPDATE OF "credentialId", "hash", "expiresAt", "revokedAt" ON "ApiKey" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Api_gateway_changes_insert" AFTER INSERT ON "Api" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Api_gateway_changes_delete" AFTER DELETE ON "Api" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Api_gateway_changes_update" AFTER UPDATE ON "Api" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;
