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
};

/** An API available in an environment, with the API's own columns. */
export type AvailabilityRow = {
  apiId: string;
  environmentId: string;
  /** the stored upstream policy, as JSON parsed but not yet validated */
  upstream: unknown;
  /** the API's stored gateway policies, as JSON parsed but not yet validated */
  policies: unknown;
  slug: string;
  kind: ApiKind;
  isPublic: boolean;
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
  grants: { apiId: string; scopes: string }[];
  /** the secrets neither revoked nor expired at the time asked about */
  secrets: { id: string; hash: string; expiresAt: Date | null }[];
};

type GrantColumns = { credentialId: string; apiId: string; scopes: string };
type SecretColumns = { id: string; credentialId: string; hash: string; expiresAt: Date | null };

/** Each credential with its own grants and secrets, from the three queries' rows. */
export function credentialRows(credentials: Omit<CredentialRow, "grants" | "secrets">[], grants: GrantColumns[], secrets: SecretColumns[]): CredentialRow[] {
  return credentials.map((credential) => ({
    ...credential,
    grants: grants.filter((grant) => grant.credentialId === credential.id).map(({ apiId, scopes }) => ({ apiId, scopes })),
    secrets: secrets.filter((secret) => secret.credentialId === credential.id).map(({ id, hash, expiresAt }) => ({ id, hash, expiresAt })),
  }));
}

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
    versions: VersionRow[];
    operationDeprecations: OperationDeprecationRow[];
  }>;
  /** the OpenAPI documents of the versions named, read apart from the directory: they can be large, and change rarely */
  openapiDocuments(versionIds: readonly string[]): Promise<OpenApiDocumentRow[]>;
  credentials(clientIds: readonly string[], now: Date): Promise<CredentialRow[]>;
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
  /** Sets `lastUsedAt` of the credentials and secrets named. */
  markUsed(input: { credentialIds: readonly string[]; secretIds: readonly string[]; now: Date }): Promise<void>;
  /** Resolves when the database answers a query. */
  ping(): Promise<void>;
};
