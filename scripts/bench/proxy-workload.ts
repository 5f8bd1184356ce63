// The proxy workload's data, made through the product's own services in a
// database Gatehouse has migrated and seeded (SEED_DEMO=0): an administrator, a
// protected PROXY API whose sso-qa upstream has two targets, both the bench's upstream
// process (so that every proxy in the comparison has the same service behind it, and the
// balancer, a health check and retries are on the measured path),
// a second API on the same upstream whose GET answers the response cache keeps (per client),
// a third whose POSTs request validation checks against its OpenAPI document (enforce),
// PROXY_CLIENTS credentials, and sso-qa's rate limits raised so that none is hit.
import { hashPassword, randomPassword } from "../../lib/accounts/passwords";
import { createApi } from "../../lib/api-registry/api-registry";
import { CLI_ACTOR, recordAudit } from "../../lib/audit/write-audit";
import type { PortalUser } from "../../lib/actors/portal-user";
import { DEVELOPMENT_AUTH_SECRET } from "../../lib/config";
import { createCredential, ensureApplication } from "../../lib/credentials/credentials";
import { createDb, type Db } from "../../lib/db";
import { newId } from "../../lib/ids";
import { BENCH_ENV, PROXY_CLIENTS } from "./options";
import { VALIDATED_DOCUMENT, VALIDATED_PROXY_API } from "./proxy-validated";

export const PROXY_API = "bench-upstream";
/** The same upstream behind a response cache policy: its GETs are answered from the cache once stored. */
export const CACHED_PROXY_API = "bench-cached";

export type ProxyCredential = { clientId: string; clientSecret: string };

/** The administrator who registers the API, made as `npm run admin -- user create` makes one. */
async function createAdmin(db: Db): Promise<PortalUser> {
  const user = await db.user.create({
    data: { id: newId("usr"), email: "bench-admin@example.com", name: "Bench Admin", role: "ADMIN", passwordHash: await hashPassword(randomPassword()) },
  });
  await recordAudit(db, CLI_ACTOR, { action: "user.create", targetType: "user", targetId: user.id, details: { email: user.email, role: user.role } });
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

/** A protected API whose sso-qa upstream is two targets, both the bench's upstream process. */
async function createProxyApi(db: Db, admin: PortalUser, slug: string, name: string, upstreamUrl: string, openapiDocument = ""): Promise<void> {
  await createApi({
    db,
    admin,
    input: {
      name,
      slug,
      summary: "The proxy benchmark's upstream.",
      version: "1.0.0",
      visibility: "protected",
      openapiDocument,
      environments: [
        {
          slug: BENCH_ENV,
          upstream: {
            targets: [
              { url: upstreamUrl, weight: 1 },
              { url: `${upstreamUrl}/`, weight: 1 },
            ],
            healthCheck: { path: "/health", intervalSeconds: 5 },
            retries: 1,
          },
        },
      ],
    },
  });
}

/** The APIs go in first: a new credential is granted every protected API of its environment. */
export async function loadProxyWorkload(databaseUrl: string, upstreamUrl: string): Promise<ProxyCredential[]> {
  const db = createDb(databaseUrl);
  try {
    await db.environment.update({ where: { slug: BENCH_ENV }, data: { rateLimitBurst: 1_000_000_000, rateLimitPerSecond: 1_000_000_000 } });
    const admin = await createAdmin(db);
    await createProxyApi(db, admin, PROXY_API, "Bench upstream", upstreamUrl);
    await createProxyApi(db, admin, CACHED_PROXY_API, "Bench upstream, cached", upstreamUrl);
    await db.api.update({ where: { slug: CACHED_PROXY_API }, data: { policies: { policies: { responseCache: { ttlSeconds: 3600, shared: false } } } } });
    await createProxyApi(db, admin, VALIDATED_PROXY_API, "Bench upstream, validated", upstreamUrl, VALIDATED_DOCUMENT);
    await db.api.update({ where: { slug: VALIDATED_PROXY_API }, data: { policies: { policies: { requestValidation: { mode: "enforce" } } } } });
    const credentials: ProxyCredential[] = [];
    for (let i = 0; i < PROXY_CLIENTS; i++) {
      const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: null, name: `Proxy Bench Client ${i + 1}` });
      const { credential, secret } = await createCredential({
        db,
        actor: CLI_ACTOR,
        applicationId: application.id,
        envSlug: BENCH_ENV,
        authSecret: DEVELOPMENT_AUTH_SECRET,
      });
      credentials.push({ clientId: credential.clientId, clientSecret: secret!.clientSecret });
    }
    return credentials;
  } finally {
    await db.$disconnect();
  }
}
