// Writers publish a change to what the gateway keeps on Redis once it is committed
// (lib/gateway-changes.ts, decision 060): the Prisma client of createDb, on a migrated database
// of the dialect under test, and a subscriber on the machine's Redis. Redis delivers messages in
// the order it ran the PUBLISH commands, so once every publish of the writer has run, a sentinel
// published by the test arrives after all of them: the messages before it are all there were.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const prefix = vi.hoisted(() => {
  const chosen = `gatehouse-test-changes-${process.pid}-${Date.now()}:`;
  process.env.REDIS_URL = "redis://127.0.0.1:6379";
  process.env.REDIS_KEY_PREFIX = chosen;
  return chosen;
});

import { migratedDatabase } from "../../lib/database/migrated-database";
import { inTransaction } from "../../lib/db";
import { closeGatewayChangePublisher, GATEWAY_MODELS, gatewayChangesChannel } from "../../lib/gateway-changes";
import { seed } from "../../prisma/seed";
import { TEST_REDIS_URL } from "../support/redis";

let fixture: Awaited<ReturnType<typeof migratedDatabase>>;
let subscriber: Redis;
let sentinels: Redis;
const received: string[] = [];

beforeAll(async () => {
  fixture = await migratedDatabase();
  await seed(fixture.db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  subscriber = new Redis(TEST_REDIS_URL);
  sentinels = new Redis(TEST_REDIS_URL);
  subscriber.on("message", (_channel, message: string) => void received.push(message));
  await subscriber.subscribe(gatewayChangesChannel(prefix));
});

afterAll(async () => {
  await closeGatewayChangePublisher();
  subscriber?.disconnect();
  sentinels?.disconnect();
  await fixture?.close();
});

const setBurst = (burst: number) => fixture.db.environment.update({ where: { slug: "sso-qa" }, data: { rateLimitBurst: burst } });

let sentinelCount = 0;

/** The changes published since the last call, once every publish sent has run. */
async function published(): Promise<number> {
  await closeGatewayChangePublisher();
  const sentinel = `sentinel-${++sentinelCount}`;
  await sentinels.publish(gatewayChangesChannel(prefix), sentinel);
  await expect.poll(() => received.includes(sentinel), { timeout: 5_000 }).toBe(true);
  return received.splice(0).filter((message) => !message.startsWith("sentinel-")).length;
}

describe("publishing gateway changes on Redis", () => {
  it("publishes a write to a model the gateway keeps once it answers", async () => {
    await published();
    await setBurst(200);
    expect(await published()).toBe(1);
  });

  it("publishes nothing for a model the gateway does not keep", async () => {
    await published();
    await fixture.db.auditEvent.create({ data: { id: `aud_${Date.now()}`, actorLabel: "cli", action: "test.write", targetType: "test", targetId: "x" } });
    expect(await published()).toBe(0);
  });

  it("publishes a transaction's writes once, when it commits, and nothing for one rolled back", async () => {
    await published();
    await expect(
      inTransaction(fixture.db, async (tx) => {
        await tx.environment.update({ where: { slug: "sso-qa" }, data: { rateLimitBurst: 202 } });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await published()).toBe(0);
    await inTransaction(fixture.db, async (tx) => {
      await tx.environment.update({ where: { slug: "sso-qa" }, data: { rateLimitBurst: 203 } });
      await tx.environment.update({ where: { slug: "sso-qa" }, data: { rateLimitPerSecond: 20 } });
    });
    expect(await published()).toBe(1);
    expect((await fixture.db.environment.findUniqueOrThrow({ where: { slug: "sso-qa" } })).rateLimitBurst).toBe(203);
  });

  it("has the database's triggers on the tables of every model it publishes, and on no other", async () => {
    const sql = fixture.database.url.startsWith("file:")
      ? `SELECT DISTINCT "tbl_name" AS "table" FROM "sqlite_master" WHERE "type" = 'trigger' AND "name" LIKE '%_gateway_changes_%'`
      : `SELECT DISTINCT "event_object_table" AS "table" FROM "information_schema"."triggers" WHERE "trigger_name" LIKE '%_gateway_changes'`;
    const tables = (await fixture.db.$queryRawUnsafe<{ table: string }[]>(sql)).map((row) => row.table).sort();
    expect(tables).toEqual([...GATEWAY_MODELS].map((model) => model[0]!.toUpperCase() + model.slice(1)).sort());
  });
});
