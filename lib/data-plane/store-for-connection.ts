import "server-only";
import type { ApiKind } from "../generated/prisma/sqlite/enums";
import type { DriverConnection } from "./connection";
import { dialectOf } from "./dialect-for-connection";
import {
  type ApiKeyRow,
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

type AvailabilityColumns = {
  apiId: string;
  environmentId: string;
  upstream: unknown;
  slug: string;
  kind: ApiKind;
  isPublic: unknown;
  policies: unknown;
  mcp: unknown;
  authentication: string;
};
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
      const [environments, availability, scopes, apisWithPlans, versions, operationDeprecations] = await Promise.all([
        all<Omit<EnvironmentRow, "requireDpop" | "dpopNonce"> & { requireDpop: unknown; dpopNonce: unknown }>(SQL.environments, []),
        all<AvailabilityColumns>(SQL.availability, []),
        all<{ apiId: string; name: string }>(SQL.scopes, []),
        all<{ apiId: string }>(SQL.apisWithPlans, []),
        all<VersionColumns>(SQL.versions, []),
        all<OperationDeprecationRow>(SQL.operationDeprecations, []),
      ]);
      return {
        environments: environments.map((row) => ({ ...row, requireDpop: dialect.flag(row.requireDpop), dpopNonce: dialect.flag(row.dpopNonce) })),
        availability: availability.map((row) => ({
          ...row,
          upstream: dialect.json(row.upstream),
          policies: dialect.json(row.policies),
          mcp: dialect.json(row.mcp),
          isPublic: dialect.flag(row.isPublic),
        })),
        scopes,
        apisWithPlans: apisWithPlans.map((row) => row.apiId),
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
        all<Omit<CredentialRow, "grants" | "secrets" | "requireDpop"> & { requireDpop: unknown }>(SQL.credentials, [ids]),
        all<Parameters<typeof credentialRows>[1][number]>(SQL.grants, [ids]),
        all<SecretColumns>(SQL.secrets, [ids, time(now)]),
      ]);
      const expiring = secrets.map((secret) => ({ ...secret, expiresAt: secret.expiresAt === null ? null : new Date(isoTime(secret.expiresAt)) }));
      const flagged = credentials.map((row) => ({ ...row, requireDpop: dialect.flag(row.requireDpop) }));
      return credentialRows(flagged, grants, expiring);
    },
    async apiKeys(hashes) {
      const rows = await all<Omit<ApiKeyRow, "expiresAt"> & { expiresAt: string | null }>(SQL.apiKeys, [list(hashes)]);
      return rows.map((row) => ({ ...row, expiresAt: row.expiresAt === null ? null : new Date(isoTime(row.expiresAt)) }));
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
    async markUsed({ credentialIds, secretIds, consentIds = [], now }) {
      const at = time(now);
      if (credentialIds.length > 0) await run(SQL.markCredentialsUsed, [at, at, list(credentialIds)]);
      if (secretIds.length > 0) await run(SQL.markSecretsUsed, [at, list(secretIds)]);
      if (consentIds.length > 0) await run(SQL.markConsentsUsed, [at, list(consentIds)]);
    },
    async takeQuota(subscriptionId, periodStart, limit) {
      const row = await get<{ used: number }>(SQL.takeQuota, [subscriptionId, time(periodStart), limit]);
      return row === undefined ? undefined : Number(row.used);
    },
    async ping() {
      await all(SQL.ping, []);
    },
  };
}
