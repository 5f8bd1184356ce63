import "server-only";
import type { ApiKind, ApiVersionStatus, CredentialType } from "../generated/prisma/sqlite/enums";

export type EnvironmentRow = {
  id: string;
  slug: string;
  name: string;
  credentialType: CredentialType;
  tokenLifetimeSeconds: number;
  rateLimitBurst: number;
  rateLimitPerSecond: number;
  /** DPoP (RFC 9449) required of every credential, and server nonces in its proofs */
  requireDpop: boolean;
  dpopNonce: boolean;
};

/** An API available in an environment, with the API's own columns. */
export type AvailabilityRow = {
  apiId: string;
  environmentId: string;
  /** the stored upstream policy, as JSON parsed but not yet validated */
  upstream: unknown;
  /** the API's stored gateway policies, as JSON parsed but not yet validated */
  policies: unknown;
  /** the API's stored MCP server settings, as JSON parsed but not yet validated */
  mcp: unknown;
  slug: string;
  kind: ApiKind;
  isPublic: boolean;
  /** the authentication methods a call may use, space-separated */
  authentication: string;
};

/**
 * A version of an API (`v1`, `v2`...), with its life's dates as ISO 8601 text. `updatedAt`
 * is the version's, as stored: compared to tell whether its document may have changed,
 * never read as a time.
 */
export type VersionRow = {
  id: string;
  apiId: string;
  version: string;
  status: ApiVersionStatus;
  deprecatedAt: string | null;
  sunsetAt: string | null;
  updatedAt: string;
  hasDocument: boolean;
};

/** An operation of a version marked deprecated; `path` is the document's path template. */
export type OperationDeprecationRow = { apiVersionId: string; method: string; path: string; deprecatedAt: string; sunsetAt: string | null };

/** A version's OpenAPI document, with the `updatedAt` it was read at. */
export type OpenApiDocumentRow = { versionId: string; updatedAt: string; document: string };

export type CredentialRow = {
  id: string;
  clientId: string;
  environmentId: string;
  status: string;
  rateLimitBurst: number | null;
  rateLimitPerSecond: number | null;
  authMethod: "CLIENT_SECRET" | "PRIVATE_KEY_JWT" | "FEDERATED";
  /** the inline JWKS: JSON text from SQLite, parsed from PostgreSQL's jsonb */
  jwks: unknown;
  jwksUri: string | null;
  trustIssuer: string | null;
  trustAudience: string | null;
  trustSubject: string | null;
  requireDpop: boolean;
  grants: { apiId: string; scopes: string; subscription: SubscriptionRow | null }[];
  /** the secrets neither revoked nor expired at the time asked about */
  secrets: { id: string; hash: string; expiresAt: Date | null }[];
};

/** The subscription of a credential's application to a granted API in its environment, with its plan's limits. */
export type SubscriptionRow = {
  id: string;
  plan: string;
  rateLimit: { burst: number; perSecond: number };
  quota: { requests: number; period: "hour" | "day" | "month" };
};

type GrantColumns = {
  credentialId: string;
  apiId: string;
  scopes: string;
  subscriptionId: string | null;
  plan: string | null;
  rateLimitBurst: number | null;
  rateLimitPerSecond: number | null;
  quotaRequests: number | null;
  quotaPeriod: string | null;
};

function subscriptionOf(grant: GrantColumns): SubscriptionRow | null {
  if (grant.subscriptionId === null) return null;
  return {
    id: grant.subscriptionId,
    plan: grant.plan ?? "",
    rateLimit: { burst: Number(grant.rateLimitBurst), perSecond: Number(grant.rateLimitPerSecond) },
    quota: { requests: Number(grant.quotaRequests), period: grant.quotaPeriod as SubscriptionRow["quota"]["period"] },
  };
}
type SecretColumns = { id: string; credentialId: string; hash: string; expiresAt: Date | null };

/** Each credential with its own grants and secrets, from the three queries' rows. */
export function credentialRows(credentials: Omit<CredentialRow, "grants" | "secrets">[], grants: GrantColumns[], secrets: SecretColumns[]): CredentialRow[] {
  return credentials.map((credential) => ({
    ...credential,
    grants: grants
      .filter((grant) => grant.credentialId === credential.id)
      .map((grant) => ({ apiId: grant.apiId, scopes: grant.scopes, subscription: subscriptionOf(grant) })),
    secrets: secrets.filter((secret) => secret.credentialId === credential.id).map(({ id, hash, expiresAt }) => ({ id, hash, expiresAt })),
  }));
}

/** An API key neither revoked nor deleted, with the client of its credential; its expiry is checked at each call. */
export type ApiKeyRow = { id: string; hash: string; clientId: string; expiresAt: Date | null };

export type PublishedKeyRow = { id: string; environmentId: string; publicJwk: string };
export type NewSigningKey = { id: string; environmentId: string; algorithm: string; publicJwk: string; privateKeyEncrypted: string };

/**
 * What the gateway reads and writes besides notifications, through the database
 * driver with statements prepared once rather than through Prisma, whose client
 * and query compiler a gateway-only process then never loads
 * (docs/decisions/007-gateway-notification-queries.md, "Queries through the driver").
 * Prisma keeps the schema, the migrations, the seed and the portal's queries.
 */
export type DataPlaneStore = {
  /** every environment, by position, every API's availability, scopes and versions, and the operations marked deprecated */
  directory(): Promise<{
    environments: EnvironmentRow[];
    availability: AvailabilityRow[];
    scopes: { apiId: string; name: string }[];
    /** the APIs that offer plans, whose callers need a subscription */
    apisWithPlans: string[];
    versions: VersionRow[];
    operationDeprecations: OperationDeprecationRow[];
  }>;
  /** the OpenAPI documents of the versions named, read apart from the directory: they can be large, and change rarely */
  openapiDocuments(versionIds: readonly string[]): Promise<OpenApiDocumentRow[]>;
  credentials(clientIds: readonly string[], now: Date): Promise<CredentialRow[]>;
  /** the API keys of the hashes given that are not revoked */
  apiKeys(hashes: readonly string[]): Promise<ApiKeyRow[]>;
  /** the jtis revoked that have not expired by `now` */
  revokedTokens(now: Date): Promise<string[]>;
  deleteExpiredRevocations(now: Date): Promise<void>;
  /** records a revocation; a jti already revoked stays as it was */
  revokeToken(revocation: { jti: string; environmentId: string; expiresAt: Date }, now: Date): Promise<void>;
  /** the keys still in the JWKS at `now`, newest first */
  publishedKeys(now: Date): Promise<PublishedKeyRow[]>;
  /** the environment's newest key that is not retired */
  signingKey(environmentId: string): Promise<{ id: string; privateKeyEncrypted: string } | undefined>;
  addSigningKey(key: NewSigningKey, now: Date): Promise<void>;
  /** Adds `key` and retires the environment's other keys, as one transaction; the ids retired. */
  replaceSigningKeys(key: NewSigningKey, retirement: { now: Date; publishedUntil: Date }): Promise<string[]>;
  /** Sets `lastUsedAt` of the credentials, secrets and agents' consents named. */
  markUsed(input: { credentialIds: readonly string[]; secretIds: readonly string[]; consentIds?: readonly string[]; now: Date }): Promise<void>;
  /**
   * Counts one call of the subscription in the period starting at `periodStart` unless `limit`
   * calls were counted already: the count after it, or undefined when the quota is used up.
   */
  takeQuota(subscriptionId: string, periodStart: Date, limit: number): Promise<number | undefined>;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
};
