import "server-only";
import { type Actor, recordAudit } from "../audit/write-audit";
import { type DbClient, inTransaction } from "../db";
import { problem, validationProblem } from "../http/problem";

/** What a grant gives one credential: calls to one API, with these scopes. */
export type GrantSummary = { clientId: string; env: string; application: string; api: string; scopes: string[] };

/**
 * Creates the grant of `credential` for `api`, or replaces its scopes, with its audit
 * event; in the caller's transaction, so an access request's approval and its grant
 * commit together.
 */
export async function writeGrant(
  db: DbClient,
  actor: Actor,
  credential: { id: string; clientId: string },
  api: { id: string; slug: string },
  scopes: string[],
) {
  const joined = scopes.join(" ");
  await db.grant.upsert({
    where: { credentialId_apiId: { credentialId: credential.id, apiId: api.id } },
    create: { credentialId: credential.id, apiId: api.id, scopes: joined },
    update: { scopes: joined },
  });
  await recordAudit(db, actor, {
    action: "credential.grant",
    targetType: "credential",
    targetId: credential.clientId,
    details: { api: api.slug, scopes: joined },
  });
}

async function credentialOrThrow(db: DbClient, clientId: string) {
  const credential = await db.credential.findUnique({
    where: { clientId },
    include: { environment: { select: { id: true, slug: true } }, application: { select: { name: true } } },
  });
  if (!credential) throw problem("not-found", { detail: `There is no credential "${clientId}".` });
  return credential;
}

async function apiOrThrow(db: DbClient, slug: string) {
  const api = await db.api.findUnique({ where: { slug }, include: { scopes: { select: { name: true } }, environments: { select: { environmentId: true } } } });
  if (!api) throw problem("not-found", { detail: `There is no API "${slug}".` });
  return api;
}

const quoted = (names: string[]) => names.map((name) => `"${name}"`).join(", ");

/**
 * Lets a credential call a protected API of its environment: with `scopes`, exactly
 * those of the API's; without, every scope the API defines, as an approved access
 * request grants. A grant the credential already has gets the new scopes. The gateway
 * applies it within 1 s, as it does revocations.
 */
export async function grantApi(input: { db: DbClient; actor: Actor; clientId: string; apiSlug: string; scopes?: string[] }): Promise<GrantSummary> {
  const { db, actor, clientId, apiSlug } = input;
  return inTransaction(db, async (tx) => {
    const credential = await credentialOrThrow(tx, clientId);
    if (credential.status !== "ACTIVE") throw problem("credential-revoked", { detail: `The credential ${clientId} is revoked.` });
    const api = await apiOrThrow(tx, apiSlug);
    const envSlug = credential.environment.slug;
    if (!api.environments.some((available) => available.environmentId === credential.environment.id)) {
      throw validationProblem([{ in: "body", field: "api", message: `the API "${apiSlug}" is not available in the environment "${envSlug}"` }]);
    }
    if (api.isPublic) {
      throw validationProblem([
        { in: "body", field: "api", message: `the API "${apiSlug}" is public: every credential in "${envSlug}" calls it without a grant` },
      ]);
    }
    if (input.scopes?.length === 0) throw validationProblem([{ in: "body", field: "scopes", message: "name at least one scope, or none for all of them" }]);
    const defined = api.scopes.map((scope) => scope.name);
    const unknown = (input.scopes ?? []).filter((scope) => !defined.includes(scope));
    if (unknown.length > 0) {
      const has = defined.length > 0 ? `it defines ${quoted(defined)}` : "it defines none";
      throw validationProblem([{ in: "body", field: "scopes", message: `the API "${apiSlug}" defines no scope ${quoted(unknown)}; ${has}` }]);
    }
    const scopes = input.scopes ? defined.filter((scope) => input.scopes!.includes(scope)) : defined;
    await writeGrant(tx, actor, credential, api, scopes);
    return { clientId, env: envSlug, application: credential.application.name, api: apiSlug, scopes };
  });
}

/** Ends a credential's access to one API; the gateway refuses its calls there within 1 s. */
export async function revokeGrant(input: { db: DbClient; actor: Actor; clientId: string; apiSlug: string }): Promise<Omit<GrantSummary, "scopes">> {
  const { db, actor, clientId, apiSlug } = input;
  return inTransaction(db, async (tx) => {
    const credential = await credentialOrThrow(tx, clientId);
    const api = await apiOrThrow(tx, apiSlug);
    const deleted = await tx.grant.deleteMany({ where: { credentialId: credential.id, apiId: api.id } });
    if (deleted.count === 0) throw problem("not-found", { detail: `The credential ${clientId} has no grant for the API "${apiSlug}".` });
    await recordAudit(tx, actor, { action: "credential.grant.revoke", targetType: "credential", targetId: clientId, details: { api: apiSlug } });
    return { clientId, env: credential.environment.slug, application: credential.application.name, api: apiSlug };
  });
}

/** A protected API of a credential's environment, with the scopes the credential's grant lacks. */
export type GrantableApi = { slug: string; name: string; scopes: string[]; granted: string[] | null; lacking: string[] };

function lackingScopes(defined: string[], granted: string): string[] {
  const has = new Set(granted.split(" "));
  return defined.filter((scope) => !has.has(scope));
}

/** Every protected API available in the credential's environment, and what the credential holds of each; null when there is no such credential. */
export async function grantableApis(input: { db: DbClient; clientId: string }): Promise<GrantableApi[] | null> {
  const credential = await input.db.credential.findUnique({ where: { clientId: input.clientId }, include: { grants: true } });
  if (!credential) return null;
  const apis = await input.db.api.findMany({
    where: { isPublic: false, environments: { some: { environmentId: credential.environmentId } } },
    include: { scopes: { select: { name: true } } },
    orderBy: { slug: "asc" },
  });
  return apis.map((api) => {
    const scopes = api.scopes.map((scope) => scope.name);
    const grant = credential.grants.find((held) => held.apiId === api.id);
    return {
      slug: api.slug,
      name: api.name,
      scopes,
      granted: grant ? grant.scopes.split(" ").filter(Boolean) : null,
      lacking: grant ? lackingScopes(scopes, grant.scopes) : [],
    };
  });
}

/** An active credential granted the API without some of the scopes it now defines (one added after the grant, say). */
export type ScopeGap = { clientId: string; application: string; env: string; lacking: string[] };

export async function credentialsLackingScopes(input: { db: DbClient; apiSlug: string }): Promise<ScopeGap[]> {
  const api = await input.db.api.findUnique({
    where: { slug: input.apiSlug },
    include: {
      scopes: { select: { name: true } },
      grants: {
        where: { credential: { status: "ACTIVE" } },
        include: { credential: { select: { clientId: true, application: { select: { name: true } }, environment: { select: { slug: true } } } } },
        orderBy: { createdAt: "asc" },
      },
    },
  });
  if (!api) return [];
  const defined = api.scopes.map((scope) => scope.name);
  return api.grants
    .map((grant) => ({
      clientId: grant.credential.clientId,
      application: grant.credential.application.name,
      env: grant.credential.environment.slug,
      lacking: lackingScopes(defined, grant.scopes),
    }))
    .filter((gap) => gap.lacking.length > 0);
}
