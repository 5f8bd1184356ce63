import "server-only";
import type { ApiKind } from "../generated/prisma/sqlite/enums";
import type { DriverConnection } from "./connection";
import { dialectOf } from "./dialect-for-connection";
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
import { storeQueries } from "./store-queries";

type AvailabilityColumns = { apiId: string; environmentId: string; upstream: unknown; slug: string; kind: ApiKind; isPublic: unknown; policies: unknown };
type SecretColumns = { id: string; credentialId: string; hash: string; expiresAt: string | null };
type VersionColumns = Omit<VersionRow, "hasDocument"> & { hasDocument: unknown };

/** The data plane's store on the connection's dialect. */
export function createDataPlaneStore(connection: DriverConnection): DataPlaneStore {
  const dialect = dialectOf(connection);
  const { all, get, run, time, isoTime, list } = dialect;
  const SQL = storeQueries(dialect);
  const isoOrNull = (stored: string | null) => (stored === null ? null : isoTime(stored));
  const keyValues = (key: NewSigningKey, now: Date) => [key.id, key.environmentId, key.algorithm, key.publicJwk, key.privateKeyEncrypted, time(now)];

  return {
    async directory() {
      const [environments, availability, scopes, versions, operationDeprecations] = await Promise.all([
        all<EnvironmentRow>(SQL.environments, []),
        all<AvailabilityColumns>(SQL.availability, []),
        all<{ apiId: string; name: string }>(SQL.scopes, []),
        all<VersionColumns>(SQL.versions, []),
        all<OperationDeprecationRow>(SQL.operationDeprecations, []),
      ]);
      return {
        environments,
        availability: availability.map((row) => ({
          ...row,
          upstream: dialect.json(row.upstream),
          policies: dialect.json(row.policies),
          isPublic: dialect.flag(row.isPublic),
        })),
        scopes,
        versions: versions.map((row) => ({
          ...row,
          deprecatedAt: isoOrNull(row.deprecatedAt),
          sunsetAt: isoOrNull(row.sunsetAt),
          hasDocument: dialect.flag(row.hasDocument),
        })),
        operationDeprecations: operationDeprecations.map((row) => ({ ...row, deprecatedAt: isoTime(row.deprecatedAt), sunsetAt: isoOrNull(row.sunsetAt) })),
      };
    },
    openapiDocuments(versionIds) {
      return all<OpenApiDocumentRow>(SQL.openapiDocuments, [list(versionIds)]);
    },
    async credentials(clientIds, now) {
      const ids = list(clientIds);
      const [credentials, grants, secrets] = await Promise.all([
        all<Omit<CredentialRow, "grants" | "secrets">>(SQL.credentials, [ids]),
        all<{ credentialId: string; apiId: string; scopes: string }>(SQL.grants, [ids]),
        all<SecretColumns>(SQL.secrets, [ids, time(now)]),
      ]);
      const expiring = secrets.map((secret) => ({ ...secret, expiresAt: secret.expiresAt === null ? null : new Date(isoTime(secret.expiresAt)) }));
      return credentialRows(credentials, grants, expiring);
    },
    async revokedTokens(now) {
      return (await all<{ jti: string }>(SQL.revoked, [time(now)])).map((row) => row.jti);
    },
    async deleteExpiredRevocations(now) {
      await run(SQL.deleteExpiredRevocations, [time(now)]);
    },
    async revokeToken({ jti, environmentId, expiresAt }, now) {
      await run(SQL.revoke, [jti, environmentId, time(expiresAt), time(now)]);
    },
    publishedKeys(now) {
      return all<PublishedKeyRow>(SQL.publishedKeys, [time(now)]);
    },
    signingKey(environmentId) {
      return get<{ id: string; privateKeyEncrypted: string }>(SQL.signingKey, [environmentId]);
    },
    async addSigningKey(key, now) {
      await run(SQL.addSigningKey, keyValues(key, now));
    },
    async replaceSigningKeys(key, { now, publishedUntil }) {
      const [, retired] = await dialect.transaction([
        { sql: SQL.addSigningKey, params: keyValues(key, now) },
        { sql: SQL.retireSigningKeys, params: [time(now), time(publishedUntil), key.environmentId, key.id] },
      ]);
      return (retired as { id: string }[]).map((row) => row.id);
    },
    async markUsed({ credentialIds, secretIds, now }) {
      const at = time(now);
      if (credentialIds.length > 0) await run(SQL.markCredentialsUsed, [at, at, list(credentialIds)]);
      if (secretIds.length > 0) await run(SQL.markSecretsUsed, [at, list(secretIds)]);
    },
    async ping() {
      await all(SQL.ping, []);
    },
  };
}
