import "server-only";
import type { ApiKind } from "../generated/prisma/sqlite/enums";
import type { SqliteConnection } from "./sqlite";
import {
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
import { sqliteIsoTime, sqliteTime } from "./time";

/** Ids as one JSON parameter, so a list of any length is one prepared statement. */
const IDS = "(SELECT value FROM json_each(?))";

const SQL = {
  environments: `SELECT "id", "slug", "name", "credentialType", "tokenLifetimeSeconds", "rateLimitBurst", "rateLimitPerSecond" FROM "Environment" ORDER BY "position"`,
  availability: `SELECT "ApiEnvironment"."apiId", "ApiEnvironment"."environmentId", "ApiEnvironment"."upstream", "Api"."slug", "Api"."kind", "Api"."isPublic" FROM "ApiEnvironment" JOIN "Api" ON "Api"."id" = "ApiEnvironment"."apiId"`,
  scopes: `SELECT "apiId", "name" FROM "ApiScope"`,
  versions: `SELECT "id", "apiId", "version", "status", "deprecatedAt", "sunsetAt", "updatedAt", "openapiDocument" IS NOT NULL AS "hasDocument" FROM "ApiVersion"`,
  operationDeprecations: `SELECT "apiVersionId", "method", "path", "deprecatedAt", "sunsetAt" FROM "ApiOperationDeprecation"`,
  openapiDocuments: `SELECT "id" AS "versionId", "updatedAt", "openapiDocument" AS "document" FROM "ApiVersion" WHERE "id" IN ${IDS} AND "openapiDocument" IS NOT NULL`,
  credentials: `SELECT "id", "clientId", "environmentId", "status", "rateLimitBurst", "rateLimitPerSecond", "authMethod", "jwks", "jwksUri", "trustIssuer", "trustAudience", "trustSubject" FROM "Credential" WHERE "clientId" IN ${IDS}`,
  grants: `SELECT "Grant"."credentialId", "Grant"."apiId", "Grant"."scopes" FROM "Grant" JOIN "Credential" ON "Credential"."id" = "Grant"."credentialId" WHERE "Credential"."clientId" IN ${IDS}`,
  secrets: `SELECT "CredentialSecret"."id", "CredentialSecret"."credentialId", "CredentialSecret"."hash", "CredentialSecret"."expiresAt" FROM "CredentialSecret" JOIN "Credential" ON "Credential"."id" = "CredentialSecret"."credentialId" WHERE "Credential"."clientId" IN ${IDS} AND "CredentialSecret"."revokedAt" IS NULL AND ("CredentialSecret"."expiresAt" IS NULL OR "CredentialSecret"."expiresAt" > ?)`,
  revoked: `SELECT "jti" FROM "RevokedToken" WHERE "expiresAt" >= ?`,
  deleteExpiredRevocations: `DELETE FROM "RevokedToken" WHERE "expiresAt" < ?`,
  revoke: `INSERT INTO "RevokedToken" ("jti", "environmentId", "expiresAt", "createdAt") VALUES (?, ?, ?, ?) ON CONFLICT ("jti") DO NOTHING`,
  publishedKeys: `SELECT "id", "environmentId", "publicJwk" FROM "SigningKey" WHERE "publishedUntil" IS NULL OR "publishedUntil" > ? ORDER BY "createdAt" DESC`,
  signingKey: `SELECT "id", "privateKeyEncrypted" FROM "SigningKey" WHERE "environmentId" = ? AND "retiredAt" IS NULL ORDER BY "createdAt" DESC LIMIT 1`,
  addSigningKey: `INSERT INTO "SigningKey" ("id", "environmentId", "algorithm", "publicJwk", "privateKeyEncrypted", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`,
  retireSigningKeys: `UPDATE "SigningKey" SET "retiredAt" = ?, "publishedUntil" = ? WHERE "environmentId" = ? AND "retiredAt" IS NULL AND "id" <> ? RETURNING "id"`,
  markCredentialsUsed: `UPDATE "Credential" SET "lastUsedAt" = ?, "updatedAt" = ? WHERE "id" IN ${IDS}`,
  markSecretsUsed: `UPDATE "CredentialSecret" SET "lastUsedAt" = ? WHERE "id" IN ${IDS}`,
  ping: "SELECT 1",
};

type AvailabilityColumns = { apiId: string; environmentId: string; upstream: string | null; slug: string; kind: ApiKind; isPublic: number };
type SecretColumns = { id: string; credentialId: string; hash: string; expiresAt: string | null };
type VersionColumns = Omit<VersionRow, "hasDocument"> & { hasDocument: number };

const isoOrNull = (stored: string | null) => (stored === null ? null : sqliteIsoTime(stored));

/** The data plane's store on a SQLite connection. */
export function createSqliteDataPlaneStore(connection: SqliteConnection): DataPlaneStore {
  const { statement, run } = connection;
  const all = <Row>(sql: string, params: unknown[] = []) => connection.all<Row>(sql, params);
  const keyValues = (key: NewSigningKey, now: Date) => [key.id, key.environmentId, key.algorithm, key.publicJwk, key.privateKeyEncrypted, sqliteTime(now)];

  return {
    async directory() {
      const [environments, availability, scopes, versions, operationDeprecations] = await Promise.all([
        all<EnvironmentRow>(SQL.environments),
        all<AvailabilityColumns>(SQL.availability),
        all<{ apiId: string; name: string }>(SQL.scopes),
        all<VersionColumns>(SQL.versions),
        all<OperationDeprecationRow>(SQL.operationDeprecations),
      ]);
      return {
        environments,
        availability: availability.map((row) => ({ ...row, upstream: row.upstream === null ? null : JSON.parse(row.upstream), isPublic: row.isPublic === 1 })),
        scopes,
        versions: versions.map((row) => ({
          ...row,
          deprecatedAt: isoOrNull(row.deprecatedAt),
          sunsetAt: isoOrNull(row.sunsetAt),
          hasDocument: row.hasDocument === 1,
        })),
        operationDeprecations: operationDeprecations.map((row) => ({
          ...row,
          deprecatedAt: sqliteIsoTime(row.deprecatedAt),
          sunsetAt: isoOrNull(row.sunsetAt),
        })),
      };
    },
    async openapiDocuments(versionIds) {
      return all<OpenApiDocumentRow>(SQL.openapiDocuments, [JSON.stringify(versionIds)]);
    },
    async credentials(clientIds, now) {
      const ids = JSON.stringify(clientIds);
      const [credentials, grants, secrets] = await Promise.all([
        all<Omit<CredentialRow, "grants" | "secrets">>(SQL.credentials, [ids]),
        all<{ credentialId: string; apiId: string; scopes: string }>(SQL.grants, [ids]),
        all<SecretColumns>(SQL.secrets, [ids, sqliteTime(now)]),
      ]);
      const expiring = secrets.map((secret) => ({ ...secret, expiresAt: secret.expiresAt === null ? null : new Date(sqliteIsoTime(secret.expiresAt)) }));
      return credentialRows(credentials, grants, expiring);
    },
    async revokedTokens(now) {
      return (await all<{ jti: string }>(SQL.revoked, [sqliteTime(now)])).map((row) => row.jti);
    },
    async deleteExpiredRevocations(now) {
      await run(SQL.deleteExpiredRevocations, [sqliteTime(now)]);
    },
    async revokeToken({ jti, environmentId, expiresAt }, now) {
      await run(SQL.revoke, [jti, environmentId, sqliteTime(expiresAt), sqliteTime(now)]);
    },
    async publishedKeys(now) {
      return all<PublishedKeyRow>(SQL.publishedKeys, [sqliteTime(now)]);
    },
    async signingKey(environmentId) {
      return (await all<{ id: string; privateKeyEncrypted: string }>(SQL.signingKey, [environmentId]))[0];
    },
    async addSigningKey(key, now) {
      await run(SQL.addSigningKey, keyValues(key, now));
    },
    replaceSigningKeys(key, { now, publishedUntil }) {
      const retire = [sqliteTime(now), sqliteTime(publishedUntil), key.environmentId, key.id];
      return connection.transaction(() => {
        statement(SQL.addSigningKey, keyValues(key, now)).run(...keyValues(key, now));
        return (statement(SQL.retireSigningKeys, retire).all(...retire) as { id: string }[]).map((row) => row.id);
      });
    },
    async markUsed({ credentialIds, secretIds, now }) {
      const at = sqliteTime(now);
      if (credentialIds.length > 0) await run(SQL.markCredentialsUsed, [at, at, JSON.stringify(credentialIds)]);
      if (secretIds.length > 0) await run(SQL.markSecretsUsed, [at, JSON.stringify(secretIds)]);
    },
    async ping() {
      await all(SQL.ping);
    },
  };
}
