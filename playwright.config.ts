import { execFileSync } from "node:child_process";
import { defineConfig, devices } from "@playwright/test";

const PRINT_FREE_PORT =
  'const server = require("node:net").createServer().listen(0, "127.0.0.1", () => { process.stdout.write(String(server.address().port)); server.close(); });';

// The port of the run's server (e2e/global-setup.ts): E2E_PORT, or a free port chosen once.
// This file is evaluated in the runner and again in every worker; the runner chooses first
// and writes E2E_PORT into its environment, which the workers it starts later inherit, so
// all of them agree. A child process asks the kernel, because the config is synchronous.
process.env.E2E_PORT ||= execFileSync(process.execPath, ["-e", PRINT_FREE_PORT], { encoding: "utf8" });
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? "line" : "list",
  use: {
    baseURL,
    trace: "off",
    launchOptions: {
      // Debian's Chromium; Playwright never downloads a browser here.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  globalSetup: "./e2e/global-setup.ts",
  globalTeardown: "./e2e/global-teardown.ts",
});
