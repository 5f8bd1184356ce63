import "server-only";
import { Redis } from "ioredis";
import { config } from "./config";
import { problem, problemResponse } from "./http/problem";
import { requestIdFrom } from "./http/request-id";
import { log } from "./log";

/** A service this instance cannot serve without; `check` rejects when it does not answer. */
export type Dependency = { name: string; check(): Promise<unknown> };

/** An answer slower than this counts as none: a load balancer should not wait on a hung dependency. */
const CHECK_TIMEOUT_MS = 2_000;

function withinTimeout(check: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), CHECK_TIMEOUT_MS);
  });
  return Promise.race([check, timeout]).finally(() => clearTimeout(timer));
}

let redis: Redis | undefined;

function redisClient(url: string): Redis {
  // A ping waits for a connection under way, and fails as soon as an attempt to connect does.
  if (!redis) {
    redis = new Redis(url, { maxRetriesPerRequest: 0, commandTimeout: CHECK_TIMEOUT_MS });
    redis.on("error", (error: Error) => log.debug({ err: error.message }, "readiness: redis error"));
  }
  return redis;
}

/**
 * The database, answering `ping`, and Redis where `REDIS_URL` is set. The full server pings
 * through Prisma, the gateway-only process through its data-plane store, which has no Prisma
 * client; both have applied the migrations before they listen.
 */
export function processDependencies(ping: () => Promise<unknown>): Dependency[] {
  const { redisUrl } = config();
  const database: Dependency = { name: "database", check: ping };
  if (!redisUrl) return [database];
  return [database, { name: "redis", check: () => redisClient(redisUrl).ping() }];
}

/** 200 when every dependency answers; otherwise 503 `not-ready`, naming each one that is down in `down`. */
export async function readinessResponse(dependencies: readonly Dependency[], request: Request): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  const results = await Promise.allSettled(dependencies.map((dependency) => withinTimeout(dependency.check())));
  const down = dependencies.filter((_, index) => results[index]!.status === "rejected").map((dependency) => dependency.name);
  if (down.length === 0) {
    const checks = Object.fromEntries(dependencies.map((dependency) => [dependency.name, "up"]));
    return Response.json({ status: "ready", checks }, { headers: { "cache-control": "no-store", "x-request-id": requestId } });
  }
  const refusal = problem("not-ready", {
    detail: `This instance cannot serve requests: ${down.join(" and ")} ${down.length === 1 ? "does" : "do"} not answer.`,
    extensions: { down },
  });
  return problemResponse(refusal, { instance: new URL(request.url).pathname, requestId });
}
