-- CreateTable
CREATE TABLE "GatewayChanges" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "changes" INTEGER NOT NULL
);

-- What the gateway keeps (docs/scaling-out.md): every insert, delete and update of the tables it
-- reads counts once, in the writer's transaction, so every writer is covered, whatever its process.
-- Updates of Credential and CredentialSecret count only for the columns the gateway reads: the
-- gateway marks their use every few seconds, which changes nothing it keeps.
INSERT INTO "GatewayChanges" ("id", "changes") VALUES (1, 0);

CREATE TRIGGER "Environment_gateway_changes_insert" AFTER INSERT ON "Environment" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Environment_gateway_changes_delete" AFTER DELETE ON "Environment" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Environment_gateway_changes_update" AFTER UPDATE ON "Environment" BEGIN
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

CREATE TRIGGER "ApiEnvironment_gateway_changes_insert" AFTER INSERT ON "ApiEnvironment" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiEnvironment_gateway_changes_delete" AFTER DELETE ON "ApiEnvironment" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiEnvironment_gateway_changes_update" AFTER UPDATE ON "ApiEnvironment" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiScope_gateway_changes_insert" AFTER INSERT ON "ApiScope" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiScope_gateway_changes_delete" AFTER DELETE ON "ApiScope" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiScope_gateway_changes_update" AFTER UPDATE ON "ApiScope" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiVersion_gateway_changes_insert" AFTER INSERT ON "ApiVersion" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiVersion_gateway_changes_delete" AFTER DELETE ON "ApiVersion" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiVersion_gateway_changes_update" AFTER UPDATE ON "ApiVersion" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiOperationDeprecation_gateway_changes_insert" AFTER INSERT ON "ApiOperationDeprecation" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiOperationDeprecation_gateway_changes_delete" AFTER DELETE ON "ApiOperationDeprecation" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "ApiOperationDeprecation_gateway_changes_update" AFTER UPDATE ON "ApiOperationDeprecation" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Application_gateway_changes_insert" AFTER INSERT ON "Application" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Application_gateway_changes_delete" AFTER DELETE ON "Application" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Application_gateway_changes_update" AFTER UPDATE ON "Application" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Team_gateway_changes_insert" AFTER INSERT ON "Team" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Team_gateway_changes_delete" AFTER DELETE ON "Team" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Team_gateway_changes_update" AFTER UPDATE ON "Team" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "TeamMember_gateway_changes_insert" AFTER INSERT ON "TeamMember" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "TeamMember_gateway_changes_delete" AFTER DELETE ON "TeamMember" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "TeamMember_gateway_changes_update" AFTER UPDATE ON "TeamMember" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Credential_gateway_changes_insert" AFTER INSERT ON "Credential" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Credential_gateway_changes_delete" AFTER DELETE ON "Credential" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Credential_gateway_changes_update" AFTER UPDATE OF "applicationId", "environmentId", "clientId", "status", "revokedAt", "rateLimitBurst", "rateLimitPerSecond", "authMethod", "jwks", "jwksUri", "trustIssuer", "trustAudience", "trustSubject" ON "Credential" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "CredentialSecret_gateway_changes_insert" AFTER INSERT ON "CredentialSecret" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "CredentialSecret_gateway_changes_delete" AFTER DELETE ON "CredentialSecret" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "CredentialSecret_gateway_changes_update" AFTER UPDATE OF "credentialId", "hash", "expiresAt", "revokedAt" ON "CredentialSecret" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Grant_gateway_changes_insert" AFTER INSERT ON "Grant" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Grant_gateway_changes_delete" AFTER DELETE ON "Grant" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "Grant_gateway_changes_update" AFTER UPDATE ON "Grant" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "SigningKey_gateway_changes_insert" AFTER INSERT ON "SigningKey" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "SigningKey_gateway_changes_delete" AFTER DELETE ON "SigningKey" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "SigningKey_gateway_changes_update" AFTER UPDATE ON "SigningKey" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "RevokedToken_gateway_changes_insert" AFTER INSERT ON "RevokedToken" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "RevokedToken_gateway_changes_delete" AFTER DELETE ON "RevokedToken" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;

CREATE TRIGGER "RevokedToken_gateway_changes_update" AFTER UPDATE ON "RevokedToken" BEGIN
    UPDATE "GatewayChanges" SET "changes" = "changes" + 1 WHERE "id" = 1;
END;
