-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Environment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "credentialType" TEXT NOT NULL,
    "tokenLifetimeSeconds" INTEGER NOT NULL DEFAULT 3600,
    "selfService" BOOLEAN NOT NULL DEFAULT false,
    "rateLimitBurst" INTEGER NOT NULL DEFAULT 100,
    "rateLimitPerSecond" INTEGER NOT NULL DEFAULT 50,
    "position" INTEGER NOT NULL DEFAULT 0,
    "requireDpop" BOOLEAN NOT NULL DEFAULT false,
    "dpopNonce" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Environment" ("createdAt", "credentialType", "id", "name", "position", "rateLimitBurst", "rateLimitPerSecond", "selfService", "slug", "tokenLifetimeSeconds", "updatedAt") SELECT "createdAt", "credentialType", "id", "name", "position", "rateLimitBurst", "rateLimitPerSecond", "selfService", "slug", "tokenLifetimeSeconds", "updatedAt" FROM "Environment";
DROP TABLE "Environment";
ALTER TABLE "new_Environment" RENAME TO "Environment";
CREATE UNIQUE INDEX "Environment_slug_key" ON "Environment"("slug");
CREATE TABLE "new_Credential" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "clientId" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "environmentId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'ACTIVE',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    "rateLimitBurst" INTEGER,
    "rateLimitPerSecond" INTEGER,
    "authMethod" TEXT NOT NULL DEFAULT 'CLIENT_SECRET',
    "jwks" JSONB,
    "jwksUri" TEXT,
    "trustIssuer" TEXT,
    "trustAudience" TEXT,
    "trustSubject" TEXT,
    "requireDpop" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Credential_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Credential_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Credential" ("applicationId", "authMethod", "clientId", "createdAt", "environmentId", "id", "jwks", "jwksUri", "lastUsedAt", "rateLimitBurst", "rateLimitPerSecond", "revokedAt", "status", "trustAudience", "trustIssuer", "trustSubject", "updatedAt") SELECT "applicationId", "authMethod", "clientId", "createdAt", "environmentId", "id", "jwks", "jwksUri", "lastUsedAt", "rateLimitBurst", "rateLimitPerSecond", "revokedAt", "status", "trustAudience", "trustIssuer", "trustSubject", "updatedAt" FROM "Credential";
DROP TABLE "Credential";
ALTER TABLE "new_Credential" RENAME TO "Credential";
CREATE UNIQUE INDEX "Credential_clientId_key" ON "Credential"("clientId");
CREATE INDEX "Credential_applicationId_environmentId_idx" ON "Credential"("applicationId", "environmentId");
CREATE INDEX "Credential_environmentId_idx" ON "Credential"("environmentId");
CREATE UNIQUE INDEX "Credential_one_active_key" ON "Credential"("applicationId", "environmentId") WHERE "status" = 'ACTIVE';
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- The tables redefined above lost their triggers (docs/databases.md): they are created again, and
-- Credential's update trigger counts requireDpop too, which the gateway reads.
CREATE TRIGGER "Environment_gateway_changes_insert" AFTER INSERT ON "Environment" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Environment_gateway_changes_delete" AFTER DELETE ON "Environment" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Environment_gateway_changes_update" AFTER UPDATE ON "Environment" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Credential_gateway_changes_insert" AFTER INSERT ON "Credential" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Credential_gateway_changes_delete" AFTER DELETE ON "Credential" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Credential_gateway_changes_update" AFTER UPDATE OF "applicationId", "environmentId", "clientId", "status", "revokedAt", "rateLimitBurst", "rateLimitPerSecond", "authMethod", "jwks", "jwksUri", "trustIssuer", "trustAudience", "trustSubject", "requireDpop" ON "Credential" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;
