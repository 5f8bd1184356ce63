-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
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
    CONSTRAINT "Credential_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Credential_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);
INSERT INTO "new_Credential" ("applicationId", "clientId", "createdAt", "environmentId", "id", "lastUsedAt", "rateLimitBurst", "rateLimitPerSecond", "revokedAt", "status", "updatedAt") SELECT "applicationId", "clientId", "createdAt", "environmentId", "id", "lastUsedAt", "rateLimitBurst", "rateLimitPerSecond", "revokedAt", "status", "updatedAt" FROM "Credential";
DROP TABLE "Credential";
ALTER TABLE "new_Credential" RENAME TO "Credential";
CREATE UNIQUE INDEX "Credential_clientId_key" ON "Credential"("clientId");
CREATE INDEX "Credential_applicationId_environmentId_idx" ON "Credential"("applicationId", "environmentId");
CREATE INDEX "Credential_environmentId_idx" ON "Credential"("environmentId");
CREATE UNIQUE INDEX "Credential_one_active_key" ON "Credential"("applicationId", "environmentId") WHERE "status" = 'ACTIVE';
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
