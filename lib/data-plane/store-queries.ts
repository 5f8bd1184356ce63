import "server-only";
import type { Dialect } from "./dialect";

/** The data-plane store's statements, in `dialect`'s SQL; built once per store, so each is prepared once. */
export function storeQueries({ param: p, inList, text }: Pick<Dialect, "param" | "inList" | "text">) {
  return {
    environments: `SELECT "id", "slug", "name", ${text(`"credentialType"`)} AS "credentialType", "tokenLifetimeSeconds", "rateLimitBurst", "rateLimitPerSecond", "requireDpop", "dpopNonce" FROM "Environment" ORDER BY "position"`,
    availability: `SELECT "ApiEnvironment"."apiId", "ApiEnvironment"."environmentId", "ApiEnvironment"."upstream", "Api"."slug", ${text(`"Api"."kind"`)} AS "kind", "Api"."isPublic", "Api"."policies", "Api"."authentication", "Api"."mcp" FROM "ApiEnvironment" JOIN "Api" ON "Api"."id" = "ApiEnvironment"."apiId"`,
    scopes: `SELECT "apiId", "name" FROM "ApiScope"`,
    apisWithPlans: `SELECT DISTINCT "apiId" FROM "ApiPlan"`,
    versions: `SELECT "id", "apiId", "version", ${text(`"status"`)} AS "status", "deprecatedAt", "sunsetAt", "updatedAt", "openapiDocument" IS NOT NULL AS "hasDocument" FROM "ApiVersion"`,
    operationDeprecations: `SELECT "apiVersionId", "method", "path", "deprecatedAt", "sunsetAt" FROM "ApiOperationDeprecation"`,
    openapiDocuments: `SELECT "id" AS "versionId", "updatedAt", "openapiDocument" AS "document" FROM "ApiVersion" WHERE ${inList(`"id"`, 1)} AND "openapiDocument" IS NOT NULL`,
    credentials: `SELECT "id", "clientId", "environmentId", ${text(`"status"`)} AS "status", "rateLimitBurst", "rateLimitPerSecond", ${text(`"authMethod"`)} AS "authMethod", "jwks", "jwksUri", "trustIssuer", "trustAudience", "trustSubject", "requireDpop" FROM "Credential" WHERE ${inList(`"clientId"`, 1)}`,
    grants: `SELECT "Grant"."credentialId", "Grant"."apiId", "Grant"."scopes", "Subscription"."id" AS "subscriptionId", "Plan"."slug" AS "plan", "Plan"."rateLimitBurst", "Plan"."rateLimitPerSecond", "Plan"."quotaRequests", ${text(`"Plan"."quotaPeriod"`)} AS "quotaPeriod" FROM "Grant" JOIN "Credential" ON "Credential"."id" = "Grant"."credentialId" LEFT JOIN "Subscription" ON "Subscription"."applicationId" = "Credential"."applicationId" AND "Subscription"."environmentId" = "Credential"."environmentId" AND "Subscription"."apiId" = "Grant"."apiId" LEFT JOIN "Plan" ON "Plan"."id" = "Subscription"."planId" WHERE ${inList(`"Credential"."clientId"`, 1)}`,
    secrets: `SELECT "CredentialSecret"."id", "CredentialSecret"."credentialId", "CredentialSecret"."hash", "CredentialSecret"."expiresAt" FROM "CredentialSecret" JOIN "Credential" ON "Credential"."id" = "CredentialSecret"."credentialId" WHERE ${inList(`"Credential"."clientId"`, 1)} AND "CredentialSecret"."revokedAt" IS NULL AND ("CredentialSecret"."expiresAt" IS NULL OR "CredentialSecret"."expiresAt" > ${p(2)})`,
    revoked: `SELECT "jti" FROM "RevokedToken" WHERE "expiresAt" >= ${p(1)}`,
    deleteExpiredRevocations: `DELETE FROM "RevokedToken" WHERE "expiresAt" < ${p(1)}`,
    revoke: `INSERT INTO "RevokedToken" ("jti", "environmentId", "expiresAt", "createdAt") VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}) ON CONFLICT ("jti") DO NOTHING`,
    publishedKeys: `SELECT "id", "environmentId", "publicJwk" FROM "SigningKey" WHERE "publishedUntil" IS NULL OR "publishedUntil" > ${p(1)} ORDER BY "createdAt" DESC`,
    signingKey: `SELECT "id", "privateKeyEncrypted" FROM "SigningKey" WHERE "environmentId" = ${p(1)} AND "retiredAt" IS NULL ORDER BY "createdAt" DESC, "id" DESC LIMIT 1`,
    addSigningKey: `INSERT INTO "SigningKey" ("id", "environmentId", "algorithm", "publicJwk", "privateKeyEncrypted", "createdAt") VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)})`,
    retireSigningKeys: `UPDATE "SigningKey" SET "retiredAt" = ${p(1)}, "publishedUntil" = ${p(2)} WHERE "environmentId" = ${p(3)} AND "retiredAt" IS NULL AND "id" <> ${p(4)} RETURNING "id"`,
    markCredentialsUsed: `UPDATE "Credential" SET "lastUsedAt" = ${p(1)}, "updatedAt" = ${p(2)} WHERE ${inList(`"id"`, 3)}`,
    markSecretsUsed: `UPDATE "CredentialSecret" SET "lastUsedAt" = ${p(1)} WHERE ${inList(`"id"`, 2)}`,
    markConsentsUsed: `UPDATE "AgentConsent" SET "lastUsedAt" = ${p(1)} WHERE ${inList(`"id"`, 2)}`,
    apiKeys: `SELECT "ApiKey"."id", "ApiKey"."hash", "ApiKey"."expiresAt", "Credential"."clientId" FROM "ApiKey" JOIN "Credential" ON "Credential"."id" = "ApiKey"."credentialId" WHERE ${inList(`"ApiKey"."hash"`, 1)} AND "ApiKey"."revokedAt" IS NULL`,
    // One statement that refuses past the quota: the row's lock (PostgreSQL) or the one writer (SQLite) makes every instance's count exact.
    takeQuota: `INSERT INTO "QuotaUsage" ("subscriptionId", "periodStart", "used") VALUES (${p(1)}, ${p(2)}, 1) ON CONFLICT ("subscriptionId", "periodStart") DO UPDATE SET "used" = "QuotaUsage"."used" + 1 WHERE "QuotaUsage"."used" < ${p(3)} RETURNING "used"`,
    ping: "SELECT 1",
  };
}
