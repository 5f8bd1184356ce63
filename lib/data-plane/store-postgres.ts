import "server-only";
import type { PostgresConnection } from "./postgres";
import {
  type AvailabilityRow,
  type CredentialRow,
  credentialRows,
  type DataPlaneStore,
  type EnvironmentRow,
  type NewSigningKey,
  type OpenApiDocumentRow,
  type OperationDeprecationRow,
  type PublishedKeyRow,
  type VersionRow,
} from "./store";
import { postgresTime } from "./time";

const SQL = {
  environments: `SELECT "id", "slug", "name", "credentialType"::text AS "credentialType", "tokenLifetimeSeconds", "rateLimitBurst", "rateLimitPerSecond" FROM "Environment" ORDER BY "position"`,
  availability: `SELECT "ApiEnvironment"."apiId", "ApiEnvironment"."environmentId", "ApiEnvironment"."upstream", "Api"."slug", "Api"."kind"::text AS "kind", "Api"."isPublic" FROM "ApiEnvironment" JOIN "Api" ON "Api"."id" = "ApiEnvironment"."apiId"`,
  scopes: `SELECT "apiId", "name" FROM "ApiScope"`,
  versions: `SELECT "id", "apiId", "version", "status"::text AS "status", "deprecatedAt", "sunsetAt", "updatedAt", "openapiDocument" IS NOT NULL AS "hasDocument" FROM "ApiVersion"`,
  operationDeprecations: `SELECT "apiVersionId", "method", "path", "deprecatedAt", "sunsetAt" FROM "ApiOperationDeprecation"`,
  openapiDocuments: `SELECT "id" AS "versionId", "updatedAt", "openapiDocument" AS "document" FROM "ApiVersion" WHERE "id" = ANY($1::text[]) AND "openapiDocument" IS NOT NULL`,
  credentials: `SELECT "id", "clientId", "environmentId", "status"::text AS "status", "rateLimitBurst", "rateLimitPerSecond", "authMethod"::text AS "authMethod", "jwks", "jwksUri", "trustIssuer", "trustAudience", "trustSubject" FROM "Credential" WHERE "clientId" = ANY($1::text[])`,
  grants: `SELECT "Grant"."credentialId", "Grant"."apiId", "Grant"."scopes" FROM "Grant" JOIN "Credential" ON "Credential"."id" = "Grant"."credentialId" WHERE "Credential"."clientId" = ANY($1::text[])`,
  secrets: `SELECT "CredentialSecret"."id", "CredentialSecret"."credentialId", "CredentialSecret"."hash", "CredentialSecret"."expiresAt" FROM "CredentialSecret" JOIN "Credential" ON "Credential"."id" = "CredentialSecret"."credentialId" WHERE "Credential"."clientId" = ANY($1::text[]) AND "CredentialSecret"."revokedAt" IS NULL AND ("CredentialSecret"."expiresAt" IS NULL OR "CredentialSecret"."expiresAt" > $2)`,
  revoked: `SELECT "jti" FROM "RevokedToken" WHERE "expiresAt" >= $1`,
  deleteExpiredRevocations: `DELETE FROM "RevokedToken" WHERE "expiresAt" < $1`,
  revoke: `INSERT INTO "RevokedToken" ("jti", "environmentId", "expiresAt", "createdAt") VALUES ($1, $2, $3, $4) ON CONFLICT ("jti") DO NOTHING`,
  publishedKeys: `SELECT "id", "environmentId", "publicJwk" FROM "SigningKey" WHERE "publishedUntil" IS NULL OR "publishedUntil" > $1 ORDER BY "createdAt" DESC`,
  signingKey: `SELECT "id", "privateKeyEncrypted" FROM "SigningKey" WHERE "environmentId" = $1 AND "retiredAt" IS NULL ORDER BY "createdAt" DESC LIMIT 1`,
  addSigningKey: `INSERT INTO "SigningKey" ("id", "environmentId", "algorithm", "publicJwk", "privateKeyEncrypted", "createdAt") VALUES ($1, $2, $3, $4, $5, $6)`,
  retireSigningKeys: `UPDATE "SigningKey" SET "retiredAt" = $1, "publishedUntil" = $2 WHERE "environmentId" = $3 AND "retiredAt" IS NULL AND "id" <> $4 RETURNING "id"`,
  markCredentialsUsed: `UPDATE "Credential" SET "lastUsedAt" = $1, "updatedAt" = $1 WHERE "id" = ANY($2::text[])`,
  markSecretsUsed: `UPDATE "CredentialSecret" SET "lastUsedAt" = $1 WHERE "id" = ANY($2::text[])`,
  ping: "SELECT 1",
};

type SecretColumns = { id: string; credentialId: string; hash: string; expiresAt: string | null };

/** The data plane's store on a PostgreSQL connection; times are read as ISO 8601 text (`postgres.ts`). */
export function createPostgresDataPlaneStore(connection: PostgresConnection): DataPlaneStore {
  const rows = async <Row extends object>(sql: string, values: unknown[] = []) => (await connection.query<Row>(sql, values)).rows;
  const keyValues = (key: NewSigningKey, now: Date) => [key.id, key.environmentId, key.algorithm, key.publicJwk, key.privateKeyEncrypted, postgresTime(now)];

  return {
    async directory() {
      const [environments, availability, scopes, versions, operationDeprecations] = await Promise.all([
        rows<EnvironmentRow>(SQL.environments),
        rows<AvailabilityRow>(SQL.availability),
        rows<{ apiId: string; name: string }>(SQL.scopes),
        rows<VersionRow>(SQL.versions),
        rows<OperationDeprecationRow>(SQL.operationDeprecations),
      ]);
      return { environments, availability, scopes, versions, operationDeprecations };
    },
    async openapiDocuments(versionIds) {
      return rows<OpenApiDocumentRow>(SQL.openapiDocuments, [versionIds]);
    },
    async credentials(clientIds, now) {
      const [credentials, grants, secrets] = await Promise.all([
        rows<Omit<CredentialRow, "grants" | "secrets">>(SQL.credentials, [clientIds]),
        rows<{ credentialId: string; apiId: string; scopes: string }>(SQL.grants, [clientIds]),
        rows<SecretColumns>(SQL.secrets, [clientIds, postgresTime(now)]),
      ]);
      const expiring = secrets.map((secret) => ({ ...secret, expiresAt: secret.expiresAt === null ? null : new Date(secret.expiresAt) }));
      return credentialRows(credentials, grants, expiring);
    },
    async revokedTokens(now) {
      return (await rows<{ jti: string }>(SQL.revoked, [postgresTime(now)])).map((row) => row.jti);
    },
    async deleteExpiredRevocations(now) {
      await rows(SQL.deleteExpiredRevocations, [postgresTime(now)]);
    },
    async revokeToken({ jti, environmentId, expiresAt }, now) {
      await rows(SQL.revoke, [jti, environmentId, postgresTime(expiresAt), postgresTime(now)]);
    },
    async publishedKeys(now) {
      return rows<PublishedKeyRow>(SQL.publishedKeys, [postgresTime(now)]);
    },
    async signingKey(environmentId) {
      return (await rows<{ id: string; privateKeyEncrypted: string }>(SQL.signingKey, [environmentId]))[0];
    },
    async addSigningKey(key, now) {
      await rows(SQL.addSigningKey, keyValues(key, now));
    },
    replaceSigningKeys(key, { now, publishedUntil }) {
      return connection.transaction(async (query) => {
        await query(SQL.addSigningKey, keyValues(key, now));
        const { rows: retired } = await query<{ id: string }>(SQL.retireSigningKeys, [
          postgresTime(now),
          postgresTime(publishedUntil),
          key.environmentId,
          key.id,
        ]);
        return retired.map((row) => row.id);
      });
    },
    async markUsed({ credentialIds, secretIds, now }) {
      const at = postgresTime(now);
      if (credentialIds.length > 0) await rows(SQL.markCredentialsUsed, [at, credentialIds]);
      if (secretIds.length > 0) await rows(SQL.markSecretsUsed, [at, secretIds]);
    },
    async ping() {
      await rows(SQL.ping);
    },
  };
}
