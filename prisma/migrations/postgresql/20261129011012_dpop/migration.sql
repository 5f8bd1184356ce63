-- AlterTable
ALTER TABLE "Environment" ADD COLUMN     "dpopNonce" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "requireDpop" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Credential" ADD COLUMN     "requireDpop" BOOLEAN NOT NULL DEFAULT false;

-- Credential's trigger counts requireDpop too, which the gateway reads.
DROP TRIGGER "Credential_gateway_changes" ON "Credential";

CREATE TRIGGER "Credential_gateway_changes" AFTER INSERT OR DELETE OR UPDATE OF "applicationId", "environmentId", "clientId", "status", "revokedAt", "rateLimitBurst", "rateLimitPerSecond", "authMethod", "jwks", "jwksUri", "trustIssuer", "trustAudience", "trustSubject", "requireDpop" ON "Credential"
    FOR EACH ROW EXECUTE FUNCTION "gateway_changes_count"();
