// Helpers shared by the token, gateway, proxy and rate-limit suites: credentials
// made with the same services the portal uses, and tokens from the real endpoint.
import { randomUUID } from "node:crypto";
import { importPKCS8, SignJWT } from "jose";
import { createDb, type Db } from "../../lib/db";
import { DEVELOPMENT_AUTH_SECRET } from "../../lib/config";
import { decryptPrivateKey } from "../../lib/oauth/signing-keys";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { createCredential, ensureApplication } from "../../lib/credentials/credentials";
import { newId } from "../../lib/ids";
import { firstVersion } from "../../lib/api-lifecycle/versions";
import type { UpstreamPolicyInput } from "../../lib/upstreams/upstream-policy";
import type { TestServer } from "../support/server";
import { GATEWAY_ENV, GATEWAY_NODE_ARGS } from "../../server/server-command";
import type { ClientKeys } from "../../lib/credentials/client-keys";

/** The two processes that serve the gateway, for suites that check a rule on each. */
export const GATEWAY_PROCESSES = [
  { name: "the full server", env: {}, nodeArgs: undefined },
  { name: "the gateway-only process", env: GATEWAY_ENV, nodeArgs: GATEWAY_NODE_ARGS },
];

/** The servers under test run without AUTH_SECRET, so they use the development one. */
export const SERVER_AUTH_SECRET = DEVELOPMENT_AUTH_SECRET;

export function openDb(server: TestServer): Db {
  return createDb(server.databaseUrl);
}

let counter = 0;

export async function newCredential(db: Db, envSlug: string, options: { scopes?: string[]; app?: string } = {}) {
  const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: null, name: options.app ?? `Test App ${++counter} ${Date.now()}` });
  const { credential, secret } = await createCredential({
    db,
    actor: CLI_ACTOR,
    applicationId: application.id,
    envSlug,
    scopes: options.scopes,
    authSecret: SERVER_AUTH_SECRET,
  });
  return { clientId: credential.clientId, clientSecret: secret!.clientSecret, credentialId: credential.id, applicationId: application.id };
}

/** A credential whose client authenticates with its keys (private_key_jwt): it has no secret. */
export async function newKeyCredential(db: Db, envSlug: string, keys: ClientKeys) {
  const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: null, name: `Key App ${++counter} ${Date.now()}` });
  const { credential, secret } = await createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug, keys });
  return { clientId: credential.clientId, credential, secret };
}

export type ProxyApi = {
  slug: string;
  /** a URL stands for an upstream of that one target */
  upstream: string | UpstreamPolicyInput;
  isPublic?: boolean;
  scopes?: string[];
  openapiDocument?: string;
  env?: string;
};

/** A proxied API offered in one environment (sso-qa unless named), written as the registry writes one. */
export async function registerProxyApi(db: Db, api: ProxyApi): Promise<void> {
  const env = await db.environment.findUniqueOrThrow({ where: { slug: api.env ?? "sso-qa" } });
  const upstream = typeof api.upstream === "string" ? { targets: [{ url: api.upstream, weight: 1 }] } : api.upstream;
  await db.api.create({
    data: {
      id: newId("api"),
      slug: api.slug,
      name: `Proxied ${api.slug}`,
      summary: "A proxied API",
      description: "Served by an upstream.",
      version: "1.0.0",
      tags: [],
      kind: "PROXY",
      isPublic: api.isPublic ?? false,
      changelog: [],
      openapiDocument: api.openapiDocument ?? null,
      versions: firstVersion({ openapiDocument: api.openapiDocument ?? null, changelog: [] }),
      scopes: { create: (api.scopes ?? []).map((name) => ({ name, description: name })) },
      environments: { create: [{ environmentId: env.id, upstream }] },
    },
  });
}

export function basic(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}`;
}

export function tokenRequest(server: TestServer, envSlug: string, init: { headers?: Record<string, string>; body?: string; method?: string } = {}) {
  return fetch(`${server.url}/gw/${envSlug}/oauth2/token`, {
    method: init.method ?? "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...init.headers },
    body: init.body,
  });
}

export async function accessToken(server: TestServer, envSlug: string, client: { clientId: string; clientSecret: string }, scope?: string): Promise<string> {
  const response = await tokenRequest(server, envSlug, {
    headers: { authorization: basic(client.clientId, client.clientSecret) },
    body: `grant_type=client_credentials${scope ? `&scope=${encodeURIComponent(scope)}` : ""}`,
  });
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Signs claims with the environment's real current key, so only the claims under test are wrong. */
export async function signWithRealKey(
  server: TestServer,
  db: Db,
  input: { envSlug: string; clientId: string; claims?: Record<string, unknown>; header?: Record<string, unknown> },
): Promise<string> {
  const { envSlug, clientId } = input;
  const env = await db.environment.findUniqueOrThrow({ where: { slug: envSlug } });
  const row = await db.signingKey.findFirstOrThrow({ where: { environmentId: env.id, retiredAt: null }, orderBy: { createdAt: "desc" } });
  const key = await importPKCS8(decryptPrivateKey(row.privateKeyEncrypted, SERVER_AUTH_SECRET), "RS256");
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: `${server.url}/gw/${envSlug}`,
    aud: `${server.url}/gw/${envSlug}/`,
    sub: clientId,
    client_id: clientId,
    scope: "notifications:read",
    env: envSlug,
    jti: randomUUID(),
    iat: now,
    exp: now + 600,
    ...input.claims,
  };
  return new SignJWT(payload).setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: row.id, ...input.header }).sign(key);
}

export function decodeJwtPart(token: string, index: 0 | 1): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[index]!, "base64url").toString("utf8"));
}

/** Polls `check` until it returns true or `timeoutMs` passes (revocations take effect within seconds, not at once). */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return check();
}
