/** What every process that loads a Prisma client runs with (the server, the admin CLI, the gateway's start-up process): see `SERVER_NODE_ARGS`. */
export const PRISMA_V8_ARGS = ["--liftoff-only"] as const;

/** `execArgv` with Prisma's V8 flags added where it lacks them: a child that loads Prisma, forked by a process that runs without them. */
export function withPrismaV8Args(execArgv: readonly string[]): string[] {
  return [...execArgv, ...PRISMA_V8_ARGS.filter((arg) => !execArgv.includes(arg))];
}

/** The V8 flag and the preload every server process runs with, the gateway-only one included. */
const EVERY_SERVER_NODE_ARGS = ["--no-allocation-site-pretenuring", "--import", "./lib/runtime/better-sqlite3-hook.mjs"] as const;

/**
 * How `npm start` runs the production server, for the benchmark and the tests
 * to start it the same way; package.json's scripts spell out the same
 * arguments (a unit test keeps them in step). The server runs compiled, from
 * dist/ (`scripts/build-server.mjs`, decision 054); the preload picks the
 * better-sqlite3 build this Node can load, in every thread.
 *
 * `--liftoff-only` (`PRISMA_V8_ARGS`) keeps V8 from compiling Prisma's WebAssembly query
 * compiler a second time with its optimizing compiler: 40-45 MB less RSS under the
 * benchmark's mix, with queries as fast (the compiler is a small part of a Prisma query).
 * V8's default young generation is kept: 32 MiB semi-spaces held 50-60 MB more and served
 * no more requests (decision 007, "Memory").
 *
 * `--no-allocation-site-pretenuring` keeps V8 from allocating a request's objects
 * straight into the old generation: a scavenge in the middle of a turn finds most
 * of the turn's requests alive, V8 would then mark their allocation sites
 * long-lived, and every later request's objects would need a full mark-compact
 * to die (decision 077).
 */
export const SERVER_NODE_ARGS = [...PRISMA_V8_ARGS, ...EVERY_SERVER_NODE_ARGS, "dist/server.js"] as const;

/**
 * Every server process's environment: libuv's thread pool of 2 threads rather than 4
 * (decision 074). The pool checks DPoP proofs' signatures and signs tokens beside one event
 * loop, which at most keeps about one core busy with them; 4 threads on a 2-core machine
 * took turns with the serving thread on its core.
 */
export const SERVER_ENV = { UV_THREADPOOL_SIZE: "2" } as const;

/**
 * How `npm run start:gateway` runs the gateway-only process: the same arguments, its
 * own entry, and a heap kept small, for the ≤ 150 MB a data-plane node may hold
 * (decisions 007, "Memory", and 019). 8 MiB semi-spaces and an old generation capped at
 * 128 MB make V8 collect before it grows: under the mix the live heap is about
 * 25 MB. 4 MiB semi-spaces held 10-15 MB less and served an eighth fewer proxied calls.
 *
 * It loads no Prisma client (its start-up runs in a process of its own), so it runs without
 * `--liftoff-only`: its only WebAssembly is undici's HTTP parser, which reads every upstream
 * answer, and held to V8's baseline compiler it served fewer proxied calls (decision 080).
 */
export const GATEWAY_NODE_ARGS = ["--max-semi-space-size=8", "--max-old-space-size=128", ...EVERY_SERVER_NODE_ARGS, "dist/gateway-server.js"] as const;

/** The gateway-only process's environment: the server's, and two malloc arenas rather than one per thread, 20 MB less RSS under the mix. */
export const GATEWAY_ENV = { ...SERVER_ENV, MALLOC_ARENA_MAX: "2" } as const;

/**
 * How `npm run admin` runs the admin CLI, for the tests to run it the same way: compiled, as
 * the server is (decision 054), with the server's preload and V8 flags. Each command
 * is a process of its own, so compiling the CLI once and leaving Prisma's WebAssembly to
 * V8's baseline compiler cut what every command spends before its first query.
 */
export const ADMIN_NODE_ARGS = [...PRISMA_V8_ARGS, ...EVERY_SERVER_NODE_ARGS, "dist/scripts/admin.js"] as const;

/**
 * How `npm run dev` runs `next dev`: through node, so that its server process,
 * which inherits the preload, picks the better-sqlite3 build this Node can load.
 */
export const DEV_NODE_ARGS = ["--import", "./lib/runtime/better-sqlite3-hook.mjs", "node_modules/next/dist/bin/next", "dev"] as const;
