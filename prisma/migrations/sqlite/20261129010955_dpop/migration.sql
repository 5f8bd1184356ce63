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

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

-- CreateIndex
CREATE INDEX "ApiKey_credentialId_idx" ON "ApiKey"("credentialId");

-- CreateIndex
CREATE INDEX "ApiKey_expiresAt_idx" ON "ApiKey"("expiresAt");
