// What `npm run bench` measures, and for how long. BENCH_QUICK=1 gives a short look.
export const QUICK = process.env.BENCH_QUICK === "1";
export const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 3 : 10));
export const WARMUP_SECONDS = QUICK ? 1 : 3;
/** Gatehouse and the hand-written service take turns this many times on each database (load.ts). */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 1 : 2));
export const CONNECTIONS = 32;
/** BENCH_WORKLOAD=mix, proxy, dpop or keys runs one workload; all by default. */
export const WORKLOADS = new Set(process.env.BENCH_WORKLOAD ? [process.env.BENCH_WORKLOAD] : ["mix", "proxy", "dpop", "keys"]);
export const PROXY_CLIENTS = 50;
/**
 * The proxy workload's rounds, taken in turns, each in a new random order, by every proxy
 * and the upstream itself (proxy-bench.ts): short rounds, so that more of them fit
 * (docs/benchmarks.md, "How the bench samples").
 */
export const PROXY_ROUNDS = QUICK ? 1 : 6;
export const PROXY_SECONDS = QUICK ? 3 : 4;
/** Each streaming figure is the median of this many tries, taken in turns (proxy-streaming.ts, docs/benchmarks.md). */
export const STREAMING_TRIES = QUICK ? 1 : 7;
export const BENCH_ENV = "sso-qa";
/** `/gw/sso-qa/{api}`, which the proxies that are not the gateway strip as the gateway strips it. */
export const GATEWAY_API_PREFIX = new RegExp(`^/gw/${BENCH_ENV}/[^/?]+`);
/** The paths the minimal server (proxy-floor.ts) answers from its stored copy rather than the upstream. */
export const FLOOR_STORED_PREFIX = "/stored/";
export const CLIENTS = QUICK ? 50 : 200;
export const PER_CLIENT = QUICK ? 150 : 500;
export const PAGE_SIZE = 20;
/** Where `npm run bench` creates (and drops) its PostgreSQL database; BENCH_POSTGRES_URL=none skips PostgreSQL. */
export const POSTGRES_SERVER_URL = process.env.BENCH_POSTGRES_URL ?? "postgresql://root@127.0.0.1:5432/postgres";
