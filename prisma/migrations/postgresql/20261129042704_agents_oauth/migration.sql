-- CreateTable
CREATE TABLE "AgentClient" (
    "id" TEXT NOT NULL,
    "environmentId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "redirectUris" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AgentClient_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentConsent" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,
    "apiId" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "AgentConsent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AgentAuthorizationCode" (
    "hash" TEXT NOT NULL,
    "consentId" TEXT NOT NULL,
    "redirectUri" TEXT NOT NULL,
    "codeChallenge" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "AgentAuthorizationCode_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "AgentRefreshToken" (
    "hash" TEXT NOT NULL,
    "consentId" TEXT NOT NULL,
    "accessJti" TEXT NOT NULL,
    "accessExpiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "AgentRefreshToken_pkey" PRIMARY KEY ("hash")
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

-- AddForeignKey
ALTER TABLE "AgentClient" ADD CONSTRAINT "AgentClient_environmentId_fkey" FOREIGN KEY ("environmentId") REFERENCES "Environment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentConsent" ADD CONSTRAINT "AgentConsent_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "AgentClient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentConsent" ADD CONSTRAINT "AgentConsent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentConsent" ADD CONSTRAINT "AgentConsent_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentConsent" ADD CONSTRAINT "AgentConsent_apiId_fkey" FOREIGN KEY ("apiId") REFERENCES "Api"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentAuthorizationCode" ADD CONSTRAINT "AgentAuthorizationCode_consentId_fkey" FOREIGN KEY ("consentId") REFERENCES "AgentConsent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AgentRefreshToken" ADD CONSTRAINT "AgentRefreshToken_consentId_fkey" FOREIGN KEY ("consentId") REFERENCES "AgentConsent"("id") ON DELETE CASCADE ON UPDATE CASCADE;
