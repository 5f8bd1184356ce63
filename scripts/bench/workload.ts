// The benchmark's data, loaded through the product's own services into a database
// that Gatehouse has migrated and seeded (SEED_DEMO=0): CLIENTS credentials in
// sso-qa, PER_CLIENT notifications each, 90 minutes apart, and sso-qa's rate
// limits raised so that none is hit.
import { DEVELOPMENT_AUTH_SECRET } from "../../lib/config";
import { createDb, type Db } from "../../lib/db";
import { createNotifications } from "../../lib/notifications/create-notifications";
import { encodeCursor } from "../../lib/notifications/cursor";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { createCredential, ensureApplication } from "../../lib/credentials/credentials";
import { BENCH_ENV, CLIENTS, PAGE_SIZE, PER_CLIENT } from "./options";
import { notificationText, randomSource } from "./text";

export type BenchClient = { clientId: string; clientSecret: string; notificationIds: string[]; cursors: string[]; token: string };

const SPACING_MS = 90 * 60 * 1000;
/** Clients share a notification's text in groups this large, so loading takes few statements yet text varies. */
const GROUP = 25;

async function createClients(db: Db): Promise<Omit<BenchClient, "notificationIds" | "cursors" | "token">[]> {
  const clients = [];
  for (let i = 0; i < CLIENTS; i++) {
    const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: null, name: `Bench Client ${i + 1}` });
    const { credential, secret } = await createCredential({
      db,
      actor: CLI_ACTOR,
      applicationId: application.id,
      envSlug: BENCH_ENV,
      authSecret: DEVELOPMENT_AUTH_SECRET,
    });
    clients.push({ clientId: credential.clientId, clientSecret: secret!.clientSecret });
  }
  return clients;
}

/**
 * Loading is not what is measured: on SQLite the loader's own connection skips the
 * sync of each commit, and notifications go in a few transactions, so that loading
 * takes seconds on a busy disk rather than minutes. Gatehouse's connections keep
 * their settings.
 */
async function loadQuickly(db: Db, databaseUrl: string): Promise<void> {
  if (databaseUrl.startsWith("file:")) await db.$executeRawUnsafe("PRAGMA synchronous = OFF");
}

/** Slots of notifications written per transaction. */
const SLOTS_PER_TRANSACTION = 50;

/**
 * On PostgreSQL, what autovacuum would do to the loaded tables within a minute of the
 * load, were it on; these machines' server runs with `autovacuum = off`. Loading left
 * each client's count of changes (`NotificationChanges`, bumped by trigger once per
 * insert) with about 500 dead versions, so that reading one count visited about 50
 * pages (decision 007, "Kept list pages").
 */
async function analyze(db: Db, databaseUrl: string): Promise<void> {
  await db.$executeRawUnsafe(databaseUrl.startsWith("file:") ? "ANALYZE" : "VACUUM ANALYZE");
}

/** Loads the data and returns, per client, its notification ids (newest first) and the cursors of its pages 2–7. */
export async function loadWorkload(databaseUrl: string): Promise<Omit<BenchClient, "token">[]> {
  const db = createDb(databaseUrl);
  try {
    const environment = await db.environment.update({
      where: { slug: BENCH_ENV },
      data: { rateLimitBurst: 1_000_000_000, rateLimitPerSecond: 1_000_000_000 },
    });
    await loadQuickly(db, databaseUrl);
    const clients = await createClients(db);
    const ids: string[][] = clients.map(() => []);
    const created: Date[] = [];
    const random = randomSource(12);
    const start = Date.now();
    for (let firstSlot = 0; firstSlot < PER_CLIENT; firstSlot += SLOTS_PER_TRANSACTION) {
      await db.$transaction(
        async (tx) => {
          for (let slot = firstSlot; slot < Math.min(PER_CLIENT, firstSlot + SLOTS_PER_TRANSACTION); slot++) {
            const createdAt = new Date(start - slot * SPACING_MS);
            created.push(createdAt);
            for (let first = 0; first < clients.length; first += GROUP) {
              const group = clients.slice(first, first + GROUP);
              const made = await createNotifications({
                db: tx as Db,
                environmentId: environment.id,
                recipients: { clientIds: group.map((client) => client.clientId) },
                createdAt,
                ...notificationText(random),
              });
              made.forEach((id, index) => ids[first + index]!.push(id));
            }
          }
        },
        { timeout: 300_000, maxWait: 60_000 },
      );
    }
    await analyze(db, databaseUrl);
    return clients.map((client, index) => ({
      ...client,
      notificationIds: ids[index]!,
      cursors: [1, 2, 3, 4, 5, 6].map((page) => encodeCursor({ createdAt: created[page * PAGE_SIZE - 1]!, id: ids[index]![page * PAGE_SIZE - 1]! })),
    }));
  } finally {
    await db.$disconnect();
  }
}
