import "server-only";
import type { Redis } from "ioredis";
import { commandScope } from "./command-scope";
import { config } from "./config";
import { log } from "./log";

/**
 * The Prisma models whose rows the gateway keeps (docs/scaling-out.md), as the client names them;
 * the tables whose triggers count a change in `prisma/migrations/*\/*_gateway_changes` are the same.
 */
export const GATEWAY_MODELS: ReadonlySet<string> = new Set([
  "environment",
  "api",
  "apiEnvironment",
  "apiScope",
  "apiVersion",
  "apiOperationDeprecation",
  "application",
  "team",
  "teamMember",
  "credential",
  "credentialSecret",
  "apiKey",
  "grant",
  "signingKey",
  "revokedToken",
  "plan",
  "apiPlan",
  "subscription",
]);

const WRITES = new Set(["create", "createMany", "createManyAndReturn", "update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany"]);

/** The Redis channel on which writers tell every gateway instance that what it keeps changed. */
export function gatewayChangesChannel(keyPrefix: string): string {
  return `${keyPrefix}gateway-changes`;
}

/** The connection changes are published on, opened on the first, and the publications not yet answered. */
type Publisher = { redis?: Promise<Redis>; sending: Set<Promise<unknown>> };

const processPublisher: Publisher = { sending: new Set() };
const COMMAND_PUBLISHER = Symbol("gateway-change-publisher");

/** The process's publisher, or inside a command run in-process (`lib/command-scope.ts`), that command's. */
function currentPublisher(): Publisher {
  return commandScope()?.slot(COMMAND_PUBLISHER, (): Publisher => ({ sending: new Set() })) ?? processPublisher;
}

/** Tells every instance subscribed on Redis (`REDIS_URL`) that what the gateway keeps changed; nothing without Redis. */
export function publishGatewayChange(): void {
  const { redisUrl, redisKeyPrefix } = config();
  if (!redisUrl) return;
  const publisher = currentPublisher();
  const { sending } = publisher;
  publisher.redis ??= import("ioredis").then(({ Redis }) => {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 1_000, connectionName: gatewayChangesChannel(redisKeyPrefix) });
    redis.on("error", () => undefined);
    // A script that writes and ends without closing it is not kept running by it.
    redis.on("connect", () => redis.stream.unref());
    return redis;
  });
  const sent: Promise<unknown> = publisher.redis
    .then((redis) => redis.publish(gatewayChangesChannel(redisKeyPrefix), ""))
    .catch((error: Error) => log.warn({ err: error.message }, "redis did not take a gateway change; instances see it at their next poll"))
    .finally(() => sending.delete(sent));
  sending.add(sent);
}

/** Waits for the changes being published, then closes the connection, so that a command-line run's changes leave with it. */
export async function closeGatewayChangePublisher(): Promise<void> {
  const scope = commandScope();
  const publisher = scope ? scope.take<Publisher>(COMMAND_PUBLISHER) : processPublisher;
  if (!publisher) return;
  await Promise.all(publisher.sending);
  const redis = await publisher.redis;
  publisher.redis = undefined;
  redis?.disconnect();
}

function writesOf<T extends object>(delegate: T, onWrite: () => void): T {
  return new Proxy(delegate, {
    get(target, operation) {
      const value = Reflect.get(target, operation);
      if (typeof operation !== "string" || !WRITES.has(operation) || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const result = value.apply(target, args) as Promise<unknown>;
        return result.then((answer) => (onWrite(), answer));
      };
    },
  });
}

function touchingGatewayModels<T extends object>(client: T, onWrite: () => void): T {
  // Each model's wrapper is made once per client: the portal reads `db.api` and the like on every query.
  const wrapped = new Map<string, object>();
  return new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof property === "string" && GATEWAY_MODELS.has(property) && value && typeof value === "object") {
        let delegate = wrapped.get(property);
        if (!delegate) wrapped.set(property, (delegate = writesOf(value, onWrite)));
        return delegate;
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

type InteractiveTransaction = <R>(work: (tx: object) => Promise<R>, options?: unknown) => Promise<R>;

/**
 * A Prisma client whose writes to the gateway's models publish a change once committed: a write
 * on the client at once, one inside `$transaction` when the transaction commits, so that no
 * instance reloads before the change is there to read. The services write only through these
 * two ways, never with raw SQL on these tables nor with the batch form of `$transaction`.
 */
export function publishingGatewayChanges<T extends object>(client: T): T {
  const published = touchingGatewayModels(client, publishGatewayChange);
  return new Proxy(published, {
    get(target, property) {
      if (property !== "$transaction") return Reflect.get(target, property);
      const transaction = Reflect.get(client, property) as InteractiveTransaction;
      return async <R>(work: (tx: object) => Promise<R>, options?: unknown) => {
        let touched = false;
        const result = await transaction.call(client, (tx) => work(touchingGatewayModels(tx, () => (touched = true))), options);
        if (touched) publishGatewayChange();
        return result;
      };
    },
  });
}
