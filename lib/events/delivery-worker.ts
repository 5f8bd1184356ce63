import "server-only";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Db } from "../db";
import { log } from "../log";
import { type Channel, PermanentDeliveryError } from "./channels";
import { nextAttemptAt } from "./retry-schedule";

export type DeliveryWorkerOptions = {
  db: Db;
  channels: Channel[];
  /** names this worker in the leases it takes; unique per process */
  owner?: string;
  /** how long a claimed delivery stays this worker's; longer than one send can take */
  leaseMs?: number;
  batchSize?: number;
};

const DEFAULT_LEASE_MS = 2 * 60_000;
const DEFAULT_BATCH_SIZE = 20;
const LAST_ERROR_LENGTH = 500;

type Claimed = Awaited<ReturnType<typeof claimDue>>[number];

function workerName(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

const claimable = (now: Date) => ({ status: "pending" as const, OR: [{ leaseExpiresAt: null }, { leaseExpiresAt: { lt: now } }] });

/**
 * Takes up to `batchSize` due deliveries. Each is claimed by a conditional update that only
 * matches while no live lease holds it; on PostgreSQL a concurrent claimer waits for the row
 * lock and then finds the lease taken, on SQLite writes take turns: either way one worker wins.
 */
async function claimDue(db: Db, input: { owner: string; leaseMs: number; batchSize: number; channels: string[] }) {
  const now = new Date();
  const due = await db.eventDelivery.findMany({
    where: { ...claimable(now), channel: { in: input.channels }, nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: "asc" },
    take: input.batchSize,
    select: { id: true },
  });
  const leaseExpiresAt = new Date(now.getTime() + input.leaseMs);
  const claimed: string[] = [];
  for (const { id } of due) {
    const won = await db.eventDelivery.updateMany({ where: { id, ...claimable(now) }, data: { leaseOwner: input.owner, leaseExpiresAt } });
    if (won.count === 1) claimed.push(id);
  }
  return db.eventDelivery.findMany({
    where: { id: { in: claimed }, leaseOwner: input.owner },
    include: { event: { select: { id: true, type: true, payload: true, occurredAt: true } } },
    orderBy: { nextAttemptAt: "asc" },
  });
}

async function settle(db: Db, owner: string, delivery: Claimed, error: unknown): Promise<"delivered" | "retried" | "failed"> {
  const held = { id: delivery.id, leaseOwner: owner };
  const released = { leaseOwner: null, leaseExpiresAt: null, attempts: delivery.attempts + 1 };
  const now = new Date();
  if (error === undefined) {
    await db.eventDelivery.updateMany({ where: held, data: { ...released, status: "delivered", deliveredAt: now, lastError: null } });
    return "delivered";
  }
  const lastError = (error instanceof Error ? error.message : String(error)).slice(0, LAST_ERROR_LENGTH);
  const next = error instanceof PermanentDeliveryError ? null : nextAttemptAt({ attempts: released.attempts, createdAt: delivery.createdAt, now });
  await db.eventDelivery.updateMany({
    where: held,
    data: next ? { ...released, lastError, nextAttemptAt: next } : { ...released, lastError, status: "failed" },
  });
  return next ? "retried" : "failed";
}

/**
 * Renews the lease just before a send, so that the send, however late in its batch, starts
 * with a whole lease ahead of it; false when another worker took the delivery meanwhile.
 */
async function renewLease(db: Db, owner: string, id: string, leaseMs: number): Promise<boolean> {
  const renewed = await db.eventDelivery.updateMany({
    where: { id, leaseOwner: owner, status: "pending" },
    data: { leaseExpiresAt: new Date(Date.now() + leaseMs) },
  });
  return renewed.count === 1;
}

/** Gives back leases on deliveries claimed but not sent, so another worker (or this one, restarted) takes them at once. */
async function release(db: Db, owner: string, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.eventDelivery.updateMany({ where: { id: { in: ids }, leaseOwner: owner }, data: { leaseOwner: null, leaseExpiresAt: null } });
}

export type DeliveryPass = { claimed: number; delivered: number; retried: number; failed: number };

/**
 * One pass: claims due deliveries and sends each through its channel. A delivery is marked
 * delivered only after its channel accepted it, so a process killed in between sends it again
 * once the lease runs out: at least once, never lost.
 */
export async function deliverDue(options: DeliveryWorkerOptions & { owner: string; stopping?: () => boolean }): Promise<DeliveryPass> {
  const { db, owner } = options;
  const channels = new Map(options.channels.map((channel) => [channel.name, channel]));
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const claimed = await claimDue(db, {
    owner,
    leaseMs,
    batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
    channels: [...channels.keys()],
  });
  const pass: DeliveryPass = { claimed: claimed.length, delivered: 0, retried: 0, failed: 0 };
  for (const [index, delivery] of claimed.entries()) {
    if (options.stopping?.()) {
      await release(
        db,
        owner,
        claimed.slice(index).map((rest) => rest.id),
      );
      break;
    }
    if (!(await renewLease(db, owner, delivery.id, leaseMs))) continue;
    const error = await channels
      .get(delivery.channel)!
      .send(delivery)
      .then(
        () => undefined,
        (failure: unknown) => failure ?? new Error("rejected"),
      );
    pass[await settle(db, owner, delivery, error)] += 1;
  }
  return pass;
}

export type DeliveryWorker = { owner: string; stop(): Promise<void> };

/**
 * Sends due deliveries now and every `pollMs`, and at once again while passes find full batches.
 * `stop` lets the delivery under way finish, gives back the rest, and closes the channels.
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions & { pollMs?: number }): DeliveryWorker {
  const owner = options.owner ?? workerName();
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  const run = async () => {
    while (!stopping) {
      const result = await deliverDue({ ...options, owner, batchSize, stopping: () => stopping });
      if (result.claimed > 0) log.info({ ...result, owner }, "event deliveries sent");
      if (result.claimed < batchSize) return;
    }
  };
  const tick = () => {
    pass = run()
      .catch((error: unknown) => log.warn({ err: error }, "event delivery pass failed; retrying at the next poll"))
      .finally(() => {
        pass = undefined;
        if (!stopping) timer = setTimeout(tick, options.pollMs ?? 5_000).unref();
      });
  };
  tick();
  return {
    owner,
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await pass;
      for (const channel of options.channels) channel.close();
    },
  };
}
