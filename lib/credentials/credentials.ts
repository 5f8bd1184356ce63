import "server-only";
import { config } from "../config";
import { isUniqueViolation } from "../database/unique-violation";
import { type Db, type DbClient, inTransaction, type Tx } from "../db";
import { Prisma } from "../generated/prisma/sqlite/client";
import { problem, validationProblem, zodProblem } from "../http/problem";
import { newId } from "../ids";
import { generateClientId, generateClientSecret, hashClientSecret, secretHint } from "../oauth/client-secrets";
import { type Actor, recordAudit } from "../audit/write-audit";
import { recordEvent } from "../events/record-event";
import { type EffectiveRateLimit, effectiveRateLimit } from "../limiters/rate-limit-policy";
import { teamApplicationsOf, teamRoleOf } from "../teams/team-access";
import { hasRole } from "../teams/team-roles";
import { ensurePersonalTeam, ensureUnassignedTeam } from "../teams/teams";
import { type ClientKeys, clientJwksSchema, jwksUriSchema, type Trust, trustSchema } from "./client-keys";

/** Rotation keeps the previous secret valid for at most this long. */
export const MAX_ROTATION_GRACE_SECONDS = 24 * 60 * 60;

/**
 * How long a rotation may take, its wait for the credential's lock included: Prisma's
 * default of 5 s ended rotations queued behind 19 others when 20 CLI processes started at
 * once on 2 cores.
 */
const ROTATION_TIMEOUT_MS = 30_000;

export type CredentialSecretSummary = {
  id: string;
  hint: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
};

export type CredentialSummary = {
  id: string;
  clientId: string;
  status: "ACTIVE" | "REVOKED";
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  environment: { id: string; slug: string; name: string; credentialType: "GLOBAL_SSO" | "PLATFORM" };
  application: { id: string; name: string; teamId: string; ownerId: string | null };
  grants: { apiId: string; apiSlug: string; apiName: string; scopes: string[] }[];
  /** the rate limit the gateway applies: the credential's override, else its environment's policy */
  rateLimit: EffectiveRateLimit;
  /** how the client authenticates at the token endpoint; only `client_secret` credentials have secrets */
  authentication: CredentialAuthentication;
  /** DPoP (RFC 9449) is required: by the credential itself, or by its environment */
  requireDpop: boolean;
  /** who requires DPoP: the credential's own switch, and its environment's default */
  dpopRequiredBy: { credential: boolean; environment: boolean };
  /** secrets that still work (not revoked, not expired), newest first; hashes never leave the database */
  secrets: CredentialSecretSummary[];
};

export type CredentialAuthentication =
  | { method: "client_secret" }
  | { method: "private_key_jwt"; jwksUri: string | null; keyIds: string[] }
  | ({ method: "federated" } & Trust);

/** The plaintext is returned once, here, and stored nowhere. */
export type IssuedSecret = {
  secretId: string;
  clientId: string;
  clientSecret: string;
  hint: string;
  expiresAt: Date | null;
};

const SUMMARY_INCLUDE = {
  environment: { select: { id: true, slug: true, name: true, credentialType: true, rateLimitBurst: true, rateLimitPerSecond: true, requireDpop: true } },
  application: { select: { id: true, name: true, teamId: true, ownerId: true } },
  grants: { include: { api: { select: { slug: true, name: true } } }, orderBy: { createdAt: "asc" } },
  secrets: {
    where: { revokedAt: null },
    select: { id: true, hint: true, createdAt: true, expiresAt: true, lastUsedAt: true },
    orderBy: { createdAt: "desc" },
  },
} as const;

type CredentialRow = Awaited<ReturnType<typeof findRows>>[number];

function authenticationOf(row: CredentialRow): CredentialAuthentication {
  if (row.authMethod === "PRIVATE_KEY_JWT") {
    const keys = (row.jwks as { keys?: { kid?: string }[] } | null)?.keys ?? [];
    return { method: "private_key_jwt", jwksUri: row.jwksUri, keyIds: keys.flatMap((key) => (key.kid ? [key.kid] : [])) };
  }
  if (row.authMethod === "FEDERATED") {
    return { method: "federated", issuer: row.trustIssuer ?? "", audience: row.trustAudience ?? "", subject: row.trustSubject ?? "" };
  }
  return { method: "client_secret" };
}

function findRows(db: DbClient, where: NonNullable<Parameters<Db["credential"]["findMany"]>[0]>["where"]) {
  return db.credential.findMany({ where, include: SUMMARY_INCLUDE, orderBy: [{ createdAt: "asc" }] });
}

function summarize(row: CredentialRow, now = new Date()): CredentialSummary {
  return {
    id: row.id,
    clientId: row.clientId,
    status: row.status,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
    environment: { id: row.environment.id, slug: row.environment.slug, name: row.environment.name, credentialType: row.environment.credentialType },
    rateLimit: effectiveRateLimit(row, row.environment),
    authentication: authenticationOf(row),
    requireDpop: row.requireDpop || row.environment.requireDpop,
    dpopRequiredBy: { credential: row.requireDpop, environment: row.environment.requireDpop },
    application: row.application,
    grants: row.grants.map((grant) => ({
      apiId: grant.apiId,
      apiSlug: grant.api.slug,
      apiName: grant.api.name,
      scopes: grant.scopes.split(" ").filter(Boolean),
    })),
    secrets: row.status === "REVOKED" ? [] : row.secrets.filter((secret) => !secret.expiresAt || secret.expiresAt > now),
  };
}

async function credentialOrThrow(db: DbClient, clientId: string): Promise<CredentialSummary> {
  const [row] = await findRows(db, { clientId });
  if (!row) throw problem("not-found", { detail: `There is no credential "${clientId}".` });
  return summarize(row);
}

/**
 * The application named `name` in `teamId`, created when missing. Without `teamId` it goes to
 * the personal team of `ownerId`, or to the Unassigned team when there is no owner.
 */
export async function ensureApplication(input: { db: DbClient; actor: Actor; ownerId: string | null; teamId?: string; name: string; description?: string }) {
  const { db, actor, ownerId, name } = input;
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw validationProblem([{ in: "body", field: "name", message: "must be 1 to 100 characters" }]);
  const teamId = input.teamId ?? (await defaultTeam(db, actor, ownerId));
  const existing = await db.application.findFirst({ where: { teamId, name: trimmed } });
  if (existing) return existing;
  try {
    return await inTransaction(db, async (tx) => {
      const application = await tx.application.create({
        data: { id: newId("app"), name: trimmed, description: input.description ?? "", teamId, ownerId },
      });
      await recordAudit(tx, actor, {
        action: "application.create",
        targetType: "application",
        targetId: application.id,
        details: { name: trimmed, teamId, ownerId },
      });
      return application;
    });
  } catch (error) {
    // Another caller created it since the read above: the unique index on (team, name)
    // refused this one, and theirs is the application.
    const created = isUniqueViolation(error) ? await db.application.findFirst({ where: { teamId, name: trimmed } }) : null;
    if (!created) throw error;
    return created;
  }
}

async function defaultTeam(db: DbClient, actor: Actor, ownerId: string | null): Promise<string> {
  if (!ownerId) return (await ensureUnassignedTeam({ db, actor })).id;
  const owner = await db.user.findUnique({ where: { id: ownerId }, select: { id: true, email: true } });
  if (!owner) throw validationProblem([{ in: "body", field: "owner", message: "No such user" }]);
  const team = await ensurePersonalTeam({ db, actor, user: owner });
  // A personal team shared before sharing was refused may no longer count its owner in.
  const role = await teamRoleOf(db, team.id, owner.id);
  if (!role || !hasRole(role, "admin")) {
    throw validationProblem([{ in: "body", field: "owner", message: `${owner.email} is no longer an admin of their personal team: name a team` }]);
  }
  return team.id;
}

/**
 * Grants for a new credential: without `scopes`, every scope of every
 * protected API available in the environment; with them, each API that
 * defines one of the scopes, limited to those scopes.
 */
async function grantsFor(db: DbClient, environmentId: string, scopes: string[] | undefined) {
  const available = await db.api.findMany({
    where: { isPublic: false, environments: { some: { environmentId } } },
    include: { scopes: { select: { name: true } } },
    orderBy: { slug: "asc" },
  });
  if (!scopes) return available.map((api) => ({ apiId: api.id, scopes: api.scopes.map((scope) => scope.name) }));
  const unknown = scopes.filter((scope) => !available.some((api) => api.scopes.some((defined) => defined.name === scope)));
  if (unknown.length > 0) {
    throw validationProblem([
      { in: "body", field: "scopes", message: `no API in this environment defines ${unknown.map((scope) => `"${scope}"`).join(", ")}` },
    ]);
  }
  return available
    .map((api) => ({ apiId: api.id, scopes: api.scopes.map((scope) => scope.name).filter((name) => scopes.includes(name)) }))
    .filter((grant) => grant.scopes.length > 0);
}

function parseExpiry(expiresAt: Date | null | undefined, now: Date): Date | null {
  if (!expiresAt) return null;
  if (Number.isNaN(expiresAt.getTime()) || expiresAt <= now) {
    throw validationProblem([{ in: "body", field: "expiresAt", message: "must be a time in the future" }]);
  }
  return expiresAt;
}

async function insertSecret(db: DbClient, credentialId: string, clientId: string, expiresAt: Date | null, authSecret: string): Promise<IssuedSecret> {
  const clientSecret = generateClientSecret();
  const hint = secretHint(clientSecret);
  const secretId = newId("sec");
  await db.credentialSecret.create({
    data: { id: secretId, credentialId, hash: hashClientSecret(clientSecret, authSecret), hint, expiresAt },
  });
  return { secretId, clientId, clientSecret, hint, expiresAt };
}

/** A credential's first secret, with its audit event, in the caller's transaction. */
async function issueAudited(tx: Tx, actor: Actor, credentialId: string, clientId: string, expiresAt: Date | null, authSecret: string | undefined) {
  const issued = await insertSecret(tx, credentialId, clientId, expiresAt, authSecret ?? config().authSecret);
  await recordAudit(tx, actor, {
    action: "credential.secret.issue",
    targetType: "credential",
    targetId: clientId,
    details: { hint: issued.hint, expiresAt: expiresAt?.toISOString() ?? null },
  });
  return issued;
}

/** The columns of a credential that trusts an issuer, validated (fields named under `prefix`); its keys are forgotten. */
function trustColumns(input: unknown, prefix?: string) {
  const parsed = trustSchema.safeParse(input);
  if (!parsed.success) throw zodProblem(prefix ? prefixed(parsed.error, prefix) : parsed.error, "body");
  const trust = parsed.data;
  return {
    trust,
    columns: {
      authMethod: "FEDERATED" as const,
      trustIssuer: trust.issuer,
      trustAudience: trust.audience,
      trustSubject: trust.subject,
      jwks: Prisma.DbNull,
      jwksUri: null,
    },
  };
}

/** The columns of a credential whose client authenticates with keys or a trusted issuer, validated; such a credential gets no secret. */
function keyColumns(keys: ClientKeys) {
  if ("trust" in keys) return trustColumns(keys.trust, "trust").columns;
  if ("jwks" in keys) {
    const parsed = clientJwksSchema.safeParse(keys.jwks);
    if (!parsed.success) throw zodProblem(prefixed(parsed.error, "jwks"), "body");
    return { authMethod: "PRIVATE_KEY_JWT" as const, jwks: parsed.data as Prisma.InputJsonObject, jwksUri: null };
  }
  const parsed = jwksUriSchema.safeParse(keys.jwksUri);
  if (!parsed.success) throw zodProblem(prefixed(parsed.error, "jwksUri"), "body");
  return { authMethod: "PRIVATE_KEY_JWT" as const, jwksUri: parsed.data };
}

function prefixed<T extends { issues: { path: PropertyKey[] }[] }>(error: T, field: string): T {
  for (const issue of error.issues) issue.path.unshift(field);
  return error;
}

/**
 * A credential of `applicationId` in `envSlug` (one active credential per
 * application and environment). With `keys` its client authenticates with
 * private_key_jwt, or with `{ trust }` with a trusted issuer's ID tokens, and it
 * never has a secret; otherwise, with `withSecret` (the
 * default), its first secret is issued too; an approved access request
 * provisions without one so that only the owner ever sees it.
 */
export async function createCredential(input: {
  db: DbClient;
  actor: Actor;
  applicationId: string;
  envSlug: string;
  scopes?: string[];
  withSecret?: boolean;
  secretExpiresAt?: Date | null;
  keys?: ClientKeys;
  authSecret?: string;
  /** DPoP (RFC 9449): tokens only with a proof */
  requireDpop?: boolean;
}): Promise<{ credential: CredentialSummary; secret: IssuedSecret | null }> {
  const { db, actor, applicationId, envSlug } = input;
  const now = new Date();
  const expiresAt = parseExpiry(input.secretExpiresAt, now);
  const keys = input.keys && keyColumns(input.keys);
  const environment = await db.environment.findUnique({ where: { slug: envSlug } });
  if (!environment) throw problem("not-found", { detail: `There is no environment "${envSlug}".` });
  const application = await db.application.findUnique({ where: { id: applicationId } });
  if (!application) throw problem("not-found", { detail: `There is no application "${applicationId}".` });
  const activeOne = () => db.credential.findFirst({ where: { applicationId, environmentId: environment.id, status: "ACTIVE" } });
  const exists = (clientId: string) =>
    problem("credential-exists", {
      detail: `"${application.name}" already has the credential ${clientId} in ${envSlug}; rotate its secret or revoke it first.`,
    });
  const active = await activeOne();
  if (active) throw exists(active.clientId);
  const grants = await grantsFor(db, environment.id, input.scopes);
  const clientId = generateClientId();
  const credentialId = newId("cred");
  const secret = await inTransaction(db, async (tx) => {
    await tx.credential.create({
      data: {
        id: credentialId,
        clientId,
        applicationId,
        environmentId: environment.id,
        ...keys,
        requireDpop: input.requireDpop ?? false,
        grants: { create: grants.map((grant) => ({ apiId: grant.apiId, scopes: grant.scopes.join(" ") })) },
      },
    });
    await recordAudit(tx, actor, {
      action: "credential.create",
      targetType: "credential",
      targetId: clientId,
      details: {
        application: application.name,
        env: envSlug,
        scopes: grants.flatMap((grant) => grant.scopes),
        authMethod: keys?.authMethod === "FEDERATED" ? "federated" : keys ? "private_key_jwt" : "client_secret",
        ...(keys?.jwksUri ? { jwksUri: keys.jwksUri } : {}),
        ...(input.requireDpop ? { requireDpop: true } : {}),
        ...(keys?.authMethod === "FEDERATED" ? { issuer: keys.trustIssuer, audience: keys.trustAudience, subject: keys.trustSubject } : {}),
      },
    });
    await recordEvent(tx, "credential.created", { clientId, application: application.name, environment: envSlug, ownerId: application.ownerId });
    return input.withSecret === false || keys ? null : issueAudited(tx, actor, credentialId, clientId, expiresAt, input.authSecret);
  }).catch(async (error: unknown) => {
    // Another caller's credential was created since the read above; the partial unique index
    // on active credentials per application and environment refused this one.
    const winner = isUniqueViolation(error) ? await activeOne() : null;
    throw winner ? exists(winner.clientId) : error;
  });
  return { credential: await credentialOrThrow(db, clientId), secret };
}

/** What every credential event says about the credential. */
export function credentialEvent(credential: { clientId: string; application: { name: string; ownerId: string | null }; environment: { slug: string } }) {
  return {
    clientId: credential.clientId,
    application: credential.application.name,
    environment: credential.environment.slug,
    ownerId: credential.application.ownerId,
  };
}

function assertActive(credential: CredentialSummary): void {
  if (credential.status !== "ACTIVE") {
    throw problem("credential-revoked", { detail: `The credential ${credential.clientId} is revoked.` });
  }
}

function assertHasSecrets(credential: CredentialSummary): void {
  const { method } = credential.authentication;
  if (method !== "client_secret") {
    throw problem("credential-without-secrets", {
      detail: `The credential ${credential.clientId} authenticates with ${method === "federated" ? "a trusted issuer's ID tokens" : "its keys (private_key_jwt)"}; it has no secret.`,
    });
  }
}

/** The first secret of a credential that has none that works (e.g. one provisioned by an approved request). */
export async function issueSecret(input: {
  db: DbClient;
  actor: Actor;
  clientId: string;
  expiresAt?: Date | null;
  authSecret?: string;
}): Promise<IssuedSecret> {
  const { db, actor, clientId } = input;
  const expiresAt = parseExpiry(input.expiresAt, new Date());
  const credential = await credentialOrThrow(db, clientId);
  assertActive(credential);
  assertHasSecrets(credential);
  if (credential.secrets.length > 0) {
    throw problem("secret-exists", { detail: `The credential ${clientId} has a secret; rotate it instead.` });
  }
  return inTransaction(db, (tx) => issueAudited(tx, actor, credential.id, clientId, expiresAt, input.authSecret));
}

/**
 * A new secret; the newest previous one keeps working for `graceSeconds`
 * (0 to 24 h; 0 ends it now), any older one ends now, so at most two live
 * secrets exist at a time.
 */
export async function rotateSecret(input: {
  db: DbClient;
  actor: Actor;
  clientId: string;
  graceSeconds: number;
  expiresAt?: Date | null;
  authSecret?: string;
}): Promise<IssuedSecret & { previousSecretValidUntil: Date | null }> {
  const { db, actor, clientId, graceSeconds } = input;
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_ROTATION_GRACE_SECONDS) {
    throw validationProblem([{ in: "body", field: "graceSeconds", message: `must be a whole number from 0 to ${MAX_ROTATION_GRACE_SECONDS}` }]);
  }
  const now = new Date();
  const expiresAt = parseExpiry(input.expiresAt, now);
  return inTransaction(
    db,
    async (tx) => {
      // Writing the credential's row first locks it (PostgreSQL's row lock, SQLite's write lock)
      // until the end of the transaction, so concurrent rotations take turns and each reads the
      // secrets the one before left: never more than two live secrets.
      await tx.credential.updateMany({ where: { clientId }, data: { updatedAt: now } });
      const credential = await credentialOrThrow(tx, clientId);
      assertActive(credential);
      assertHasSecrets(credential);
      const [newest, ...older] = credential.secrets;
      const graceEnd = new Date(now.getTime() + graceSeconds * 1000);
      const previousSecretValidUntil = newest && graceSeconds > 0 ? (newest.expiresAt && newest.expiresAt < graceEnd ? newest.expiresAt : graceEnd) : null;
      const ending = [...older, ...(newest && !previousSecretValidUntil ? [newest] : [])].map((secret) => secret.id);
      if (ending.length > 0) await tx.credentialSecret.updateMany({ where: { id: { in: ending } }, data: { revokedAt: now } });
      if (newest && previousSecretValidUntil) {
        await tx.credentialSecret.update({ where: { id: newest.id }, data: { expiresAt: previousSecretValidUntil } });
      }
      const issued = await insertSecret(tx, credential.id, clientId, expiresAt, input.authSecret ?? config().authSecret);
      await recordAudit(tx, actor, {
        action: "credential.secret.rotate",
        targetType: "credential",
        targetId: clientId,
        details: {
          hint: issued.hint,
          expiresAt: expiresAt?.toISOString() ?? null,
          previousHint: newest?.hint ?? null,
          previousSecretValidUntil: previousSecretValidUntil?.toISOString() ?? null,
        },
      });
      await recordEvent(tx, "credential.rotated", {
        ...credentialEvent(credential),
        hint: issued.hint,
        previousSecretValidUntil: previousSecretValidUntil?.toISOString() ?? null,
      });
      return { ...issued, previousSecretValidUntil };
    },
    { timeoutMs: ROTATION_TIMEOUT_MS },
  );
}

/** Ends the credential and all its secrets at once; the gateway refuses its tokens within seconds. */
export async function revokeCredential(input: { db: DbClient; actor: Actor; clientId: string }): Promise<CredentialSummary> {
  const { db, actor, clientId } = input;
  const credential = await credentialOrThrow(db, clientId);
  assertActive(credential);
  const now = new Date();
  await inTransaction(db, async (tx) => {
    await tx.credential.update({ where: { id: credential.id }, data: { status: "REVOKED", revokedAt: now } });
    await tx.credentialSecret.updateMany({ where: { credentialId: credential.id, revokedAt: null }, data: { revokedAt: now } });
    await recordAudit(tx, actor, { action: "credential.revoke", targetType: "credential", targetId: clientId, details: { env: credential.environment.slug } });
    await recordEvent(tx, "credential.revoked", credentialEvent(credential));
  });
  return credentialOrThrow(db, clientId);
}

/**
 * Turns the credential's own DPoP requirement on or off; its environment may require DPoP
 * anyway. Tokens issued before stay as they were (bearer or bound) until they expire.
 */
export async function setCredentialDpop(input: { db: DbClient; actor: Actor; clientId: string; requireDpop: boolean }): Promise<CredentialSummary> {
  const { db, actor, clientId, requireDpop } = input;
  const credential = await credentialOrThrow(db, clientId);
  assertActive(credential);
  await inTransaction(db, async (tx) => {
    await tx.credential.update({ where: { id: credential.id }, data: { requireDpop } });
    await recordAudit(tx, actor, { action: "credential.dpop", targetType: "credential", targetId: clientId, details: { requireDpop } });
  });
  return credentialOrThrow(db, clientId);
}

/**
 * Makes the credential trust an external OIDC issuer (workload identity federation): from now
 * on its client authenticates with that issuer's ID tokens for `audience` and `subject`, and
 * with nothing else; its secrets end at once and its keys are forgotten.
 */
export async function trustIssuer(input: { db: DbClient; actor: Actor; clientId: string; trust: unknown }): Promise<CredentialSummary> {
  const { db, actor, clientId } = input;
  const { trust, columns } = trustColumns(input.trust);
  const credential = await credentialOrThrow(db, clientId);
  assertActive(credential);
  const now = new Date();
  await inTransaction(db, async (tx) => {
    await tx.credential.update({ where: { id: credential.id }, data: columns });
    await tx.credentialSecret.updateMany({ where: { credentialId: credential.id, revokedAt: null }, data: { revokedAt: now } });
    await recordAudit(tx, actor, { action: "credential.trust", targetType: "credential", targetId: clientId, details: trust });
  });
  return credentialOrThrow(db, clientId);
}

export async function findCredential(input: { db: DbClient; clientId: string }): Promise<CredentialSummary | null> {
  const [row] = await findRows(input.db, { clientId: input.clientId });
  return row ? summarize(row) : null;
}

/** Every credential of every application of the teams `userId` is a member of, oldest first. */
export async function listUserCredentials(input: { db: DbClient; userId: string }): Promise<CredentialSummary[]> {
  if (!input.userId) return [];
  const rows = await findRows(input.db, { application: teamApplicationsOf(input.userId) });
  return rows.map((row) => summarize(row));
}

/** For admins: every credential. */
export type CredentialFilter = { envSlug?: string; applicationName?: string; ownerEmail?: string };

export async function listAllCredentials(input: { db: DbClient; filter?: CredentialFilter }): Promise<CredentialSummary[]> {
  const { envSlug, applicationName, ownerEmail } = input.filter ?? {};
  const rows = await findRows(input.db, {
    ...(envSlug === undefined ? {} : { environment: { slug: envSlug } }),
    ...(applicationName === undefined && ownerEmail === undefined
      ? {}
      : {
          application: {
            ...(applicationName === undefined ? {} : { name: applicationName }),
            ...(ownerEmail === undefined ? {} : { owner: { email: ownerEmail } }),
          },
        }),
  });
  return rows.map((row) => summarize(row));
}
