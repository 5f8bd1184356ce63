import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "./fixtures";

/** Registers the API from a configuration file with the admin CLI, as an operator would. */
function applyConfig(yaml: string): void {
  const file = join(mkdtempSync(join(tmpdir(), "gatehouse-e2e-")), "gatehouse.yaml");
  writeFileSync(file, yaml);
  execFileSync("npm", ["run", "--silent", "admin", "--", "config", "apply", "-f", file], {
    env: { ...process.env, APP_ENV: "test", DATABASE_URL: process.env.E2E_DATABASE_URL },
    encoding: "utf8",
  });
}

test("an admin sees which targets of an upstream take calls", async ({ signInAs, baseURL }) => {
  const live = createServer((_req, res) => res.end("{}"));
  await new Promise<void>((resolve) => live.listen(0, "127.0.0.1", resolve));
  const dead = createServer();
  await new Promise<void>((resolve) => dead.listen(0, "127.0.0.1", resolve));
  const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
  await new Promise((resolve) => dead.close(resolve));
  const liveUrl = `http://127.0.0.1:${(live.address() as AddressInfo).port}`;
  try {
    applyConfig(`apis:
  - slug: e2e-health
    name: Health Probe API
    summary: Two targets, one of them gone
    version: 1.0.0
    visibility: public
    environments:
      sso-qa:
        targets: [{ url: "${liveUrl}" }, { url: "${deadUrl}", weight: 2 }]
        healthCheck: { path: /health, intervalSeconds: 1, unhealthyAfter: 1, healthyAfter: 1 }
`);
    // The gateway reads registrations within 5 s; every call succeeds, retried past the gone target.
    await expect.poll(async () => (await fetch(`${baseURL}/gw/sso-qa/e2e-health/items`)).status, { timeout: 10_000 }).toBe(200);

    const admin = await signInAs("admin");
    await admin.goto("/admin/apis/e2e-health");
    const health = admin.getByRole("region", { name: "Upstream health" });
    await expect(async () => {
      await admin.reload();
      await expect(health.getByRole("row").filter({ hasText: deadUrl })).toContainText("Failing its health check", { timeout: 500 });
    }).toPass({ timeout: 10_000 });
    await expect(health.getByRole("row").filter({ hasText: liveUrl })).toContainText("Healthy");
    await expect(health.getByRole("row").filter({ hasText: deadUrl })).toContainText("Global SSO QA");
  } finally {
    live.close();
  }
});
