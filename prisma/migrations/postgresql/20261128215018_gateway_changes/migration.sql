-- CreateTable
CREATE TABLE "GatewayChanges" (
    "id" INTEGER NOT NULL,
    "changes" INTEGER NOT NULL,

    CONSTRAINT "GatewayChanges_pkey" PRIMARY KEY ("id")
);

-- What the gateway keeps (docs/scaling-out.md): every insert, delete and update of the tables it
-- reads notifies the channel gatehouse_changes, which PostgreSQL sends when the writer commits, one
-- per transaction, so every writer is covered, whatever its process. The rows are not counted here:
-- one counted row would make every writer of these tables wait on its lock until commit, and
-- instances reload in full whenever their listening connection was lost. Updates of Credential and
-- CredentialSecret count only for the columns the gateway reads: the gateway marks their use every
-- few seconds, which changes nothing it keeps. The schema engine's PostgreSQL adapter runs a
-- script one statement at a time, cut at every semicolon, so the function's body is an escaped
-- string in which \073 is the semicolon.
CREATE FUNCTION "gateway_changes_count"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
    PERFORM pg_notify(''gatehouse_changes'', '''')\073
    RETURN NULL\073
END\073
';

CREATE TRIGGER "Environment_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "Environment"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "Api_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "Api"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "ApiEnvironment_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "ApiEnvironment"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "ApiScope_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "ApiScope"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "ApiVersion_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "ApiVersion"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "ApiOperationDeprecation_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "ApiOperationDeprecation"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "Application_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "Application"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "Team_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "Team"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "TeamMember_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "TeamMember"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "Credential_gateway_changes" AFTER INSERT OR DELETE OR UPDATE OF "applicationId", "environmentId", "clientId", "status", "revokedAt", "rateLimitBurst", "rateLimitPerSecond", "authMethod", "jwks", "jwksUri", "trustIssuer", "trustAudience", "trustSubject" ON "Credential"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "CredentialSecret_gateway_changes" AFTER INSERT OR DELETE OR UPDATE OF "credentialId", "hash", "expiresAt", "revokedAt" ON "CredentialSecret"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "Grant_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "Grant"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "SigningKey_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "SigningKey"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();

CREATE TRIGGER "RevokedToken_gateway_changes" AFTER INSERT OR UPDATE OR DELETE ON "RevokedToken"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();
