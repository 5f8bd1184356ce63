-- CreateTable
CREATE TABLE "AgentClient" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "environmentId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "redirectUris" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AgentClient_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AgentConsent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "apiId" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    CONSTRAINT "AgentConsent_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "AgentClient" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AgentConsent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AgentConsent_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AgentConsent_apiId_fkey" FOREIGN KEY ("apiId") REFERENCES "Api" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AgentAuthorizationCode" (
    "hash" TEXT NOT NULL PRIMARY KEY,
    "consentId" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "codeChallenge" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    CONSTRAINT "AgentAuthorizationCode_consentId_fkey" FOREIGN KEY ("consentId") REFERENCES "AgentConsent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AgentRefreshToken" (
    "hash" TEXT NOT NULL PRIMARY KEY,
    "consentId" TEXT NOT NULL,
    "accessJti" TEXT NOT NULL,
    "accessExpiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "usedAt" DATETIME,
    CONSTRAINT "AgentRefreshToken_consentId_fkey" FOREIGN KEY ("consentId") REFERENCES "AgentConsent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "AgentClient_lastUsedAt_idx" ON "AgentClient"("lastUsedAt");

-- CreateIndex
CREATE INDEX "AgentConsent_userId_idx" ON "AgentConsent"("userId");

-- CreateIndex
CREATE INDEX "AgentConsent_agentId_idx" ON "AgentConsent"("agentId");

-- CreateIndex
CREATE INDEX "AgentAuthorizationCode_consentId_idx" ON "AgentAuthorizationCode"("consentId");

-- CreateIndex
CREATE INDEX "AgentRefreshToken_consentId_idx" ON "AgentRefreshToken"("consentId");
