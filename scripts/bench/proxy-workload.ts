// The proxy workload's data, made through the product's own services in a
// database Gatehouse has migrated and seeded (SEED_DEMO=0): an administrator, a
// protected PROXY API whose sso-qa upstream has two targets, both the bench's upstream
// process (so that every proxy in the comparison has the same service behind it, and the
// balancer, a health check and retries are on the measured path),
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

export const PROXY_API = "bench-upstream";

export type ProxyCredential = { clientId: string; clientSecret: string };

/** The administrator who registers the API, made as `npm run admin -- user create` makes one. */
async function createAdmin(db: Db): Promise<PortalUser> {
  const user = await db.user.create({
    data: { id: newId("usr"), email: "bench-admin@example.com", name: "Bench Admin", role: "ADMIN", passwordHash: await hashPassword(randomPassword()) },
  });
  await recordAudit(db, CLI_ACTOR, { action: "user.create", targetType: "user", targetId: user.id, details: { email: user.email, role: user.role } });
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

/** The API goes in first: a new credential is granted every protected API of its environment. */
export async function loadProxyWorkload(databaseUrl: string, upstreamUrl: string): Promise<ProxyCredential[]> {
  const db = createDb(databaseUrl);
  try {
    await db.environment.update({ where: { slug: BENCH_ENV }, data: { rateLimitBurst: 1_000_000_000, rateLimitPerSecond: 1_000_000_000 } });
    await createApi({
      db,
      admin: await createAdmin(db),
      input: {
        name: "Bench upstream",
        slug: PROXY_API,
        summary: "The proxy benchmark's upstream.",
        version: "1.0.0",
        visibility: "protected",
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
