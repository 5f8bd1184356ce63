import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SYSTEM_ACTOR } from "../../lib/audit/write-audit";
import { createCredential, ensureApplication } from "../../lib/credentials/credentials";
import { migratedDatabase } from "../../lib/database/migrated-database";
import { createDb, type Db } from "../../lib/db";
import { startDeliveryWorker } from "../../lib/events/delivery-worker";
import { emailChannel } from "../../lib/events/email-channel";
import { newId } from "../../lib/ids";
import { seed } from "../../prisma/seed";
import { inheritedEnv } from "../support/child-env";
import { type SmtpSink, startSmtpSink } from "../support/smtp-sink";

vi.hoisted(() => {
  process.env.SMTP_URL = "smtp://127.0.0.1:2525";
  process.env.LOG_LEVEL = "silent";
});

const ROOT = join(import.meta.dirname, "..", "..");
let database: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Db;
let sink: SmtpSink;

beforeAll(async () => {
  database = await migratedDatabase();
  db = database.db;
  await seed(db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  sink = await startSmtpSink();
});

afterAll(async () => {
  await sink?.close();
  await database?.close();
});

/** `count` credential.created events, each with one pending email delivery; their ids. */
async function pendingDeliveries(count: number): Promise<string[]> {
  await db.eventDelivery.deleteMany();
  for (let index = 0; index < count; index++) {
    const owner = await db.user.create({ data: { id: newId("usr"), email: `owner-${newId("u")}@example.test`, name: "Owner", role: "DEVELOPER" } });
    const application = await ensureApplication({ db, actor: SYSTEM_ACTOR, ownerId: owner.id, name: "App" });
    await createCredential({ db, actor: SYSTEM_ACTOR, applicationId: application.id, envSlug: "platform-dev" });
  }
  const rows = await db.eventDelivery.findMany({ select: { id: true } });
  expect(rows).toHaveLength(count);
  return rows.map((row) => row.id);
}

async function allDelivered(): Promise<void> {
  await vi.waitFor(
    async () => {
      expect(await db.eventDelivery.count({ where: { status: { not: "delivered" } } })).toBe(0);
    },
    { timeout: 60_000, interval: 200 },
  );
}

function timesReceived(): Map<string, number> {
  const times = new Map<string, number>();
  for (const mail of sink.received) times.set(mail.messageId, (times.get(mail.messageId) ?? 0) + 1);
  return times;
}

function startWorkerProcess(): { child: ChildProcess; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> } {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "--import", "./lib/runtime/server-only-hook.mjs", "tests/support/event-worker-process.ts"],
    {
      cwd: ROOT,
      env: { ...inheritedEnv(), NODE_ENV: "test", DATABASE_URL: database.database.url, SMTP_URL: sink.url, LEASE_MS: "2000", LOG_LEVEL: "silent" },
      stdio: "ignore",
    },
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code: number | null, signal: NodeJS.Signals | null) => resolve({ code, signal })),
  );
  return { child, exited };
}

describe("event delivery", () => {
  // Two worker processes start under tsx, which takes many seconds on a loaded machine.
  it("loses nothing when the worker is killed mid-delivery: the delivery under way is sent again, every other once", { timeout: 120_000 }, async () => {
    const ids = await pendingDeliveries(12);
    sink.received.length = 0;
    sink.hold();
    const first = startWorkerProcess();
    await sink.waitFor(1);
    first.child.kill("SIGKILL");
    expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" });
    const afterKill = await db.eventDelivery.findMany();
    expect(afterKill.every((row) => row.status === "pending" && row.attempts === 0)).toBe(true);
    expect(afterKill.filter((row) => row.leaseOwner).length).toBeGreaterThan(0);
    // The SMTP server now accepts the message the killed worker was sending; its answer reaches no one.
    expect(sink.held).toBe(1);
    sink.release();
    const inFlight = sink.received[0]?.messageId;

    const second = startWorkerProcess();
    await allDelivered();
    second.child.kill("SIGTERM");
    expect(await second.exited).toEqual({ code: 0, signal: null });

    const times = timesReceived();
    expect(new Set(times.keys())).toEqual(new Set(ids.map((id) => `<${id}@gatehouse>`)));
    expect(times.get(inFlight!)).toBe(2);
    expect([...times.entries()].filter(([messageId]) => messageId !== inFlight).every(([, count]) => count === 1)).toBe(true);
    const rows = await db.eventDelivery.findMany();
    expect(rows.every((row) => row.status === "delivered" && row.attempts === 1 && row.leaseOwner === null && row.deliveredAt)).toBe(true);
  });

  it("sends each delivery once with two workers, each with its own connection pool, on one database", { timeout: 90_000 }, async () => {
    const ids = await pendingDeliveries(30);
    sink.received.length = 0;
    const channel = () => emailChannel({ smtpUrl: sink.url, from: "portal@example.test", publicUrl: "https://portal.example.test", portalName: "Portal" });
    const clients = [createDb(database.database.url), createDb(database.database.url)];
    const workers = clients.map((client, index) =>
      startDeliveryWorker({ db: client, channels: [channel()], owner: `worker-${index}`, batchSize: 4, pollMs: 50 }),
    );
    try {
      await allDelivered();
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await Promise.all(clients.map((client) => client.$disconnect()));
    }
    const times = timesReceived();
    expect(new Set(times.keys())).toEqual(new Set(ids.map((id) => `<${id}@gatehouse>`)));
    expect([...times.values()].every((count) => count === 1)).toBe(true);
    expect(sink.received).toHaveLength(30);
  });
});
