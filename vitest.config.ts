import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Files that set the process's environment before `lib/` reads it (`config()` parses it once
 * per process), so they run in a process of their own, as the integration files do.
 */
const OWN_PROCESS = ["tests/unit/gateway-changes.test.ts"];

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // Tests run on the server; `server-only` guards bundles, not Node.
      "server-only": fileURLToPath(new URL("./tests/support/empty-module.ts", import.meta.url)),
    },
  },
  test: {
    globalSetup: ["./tests/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 90_000,
    // Integration files each start a production server; two at a time suits two cores.
    maxWorkers: 2,
    // Test workers load better-sqlite3 and Prisma too, so they run as servers do (decision 054):
    // the better-sqlite3 build this Node can load, and Prisma's WebAssembly left to V8's
    // baseline compiler, which spares each file's worker an optimizing compile it barely uses.
    execArgv: ["--liftoff-only", "--import", new URL("./lib/runtime/better-sqlite3-hook.mjs", import.meta.url).href],
    projects: [
      {
        extends: true,
        // The unit suites share their worker processes, one after another: each file's own
        // process would load Vitest, Prisma and lib/ again for tests that take milliseconds.
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "server/**/*.test.ts", "prisma/**/*.test.ts", "tests/unit/**/*.test.ts"],
          exclude: OWN_PROCESS,
          isolate: false,
        },
      },
      {
        extends: true,
        // Each integration file runs in a process of its own, beside the servers it starts.
        test: { name: "integration", include: ["tests/integration/**/*.test.ts", ...OWN_PROCESS] },
      },
    ],
  },
});
