import { execFileSync } from "node:child_process";
import type { Page } from "@playwright/test";
import { type Account, expect, horizontalOverflow, seriousAccessibilityViolations, test } from "./fixtures";

// Swagger UI and the portal pages wait on a server that may share a busy machine.
test.setTimeout(120_000);
const SLOW = { timeout: 30_000 };

test("a developer looks up their own failed request by the requestId of its problem", async ({ signInAs }) => {
  const developer = await signInAs("developer");
  await developer.goto("/apis/notifications?tab=reference&env=sso-qa&try=1");
  await expect(developer.getByRole("status").filter({ hasText: "Test token applied" })).toBeVisible(SLOW);
  // Swagger UI stores the token once it has loaded, which can be after the token was handed over.
  await expect.poll(() => developer.evaluate(() => window.localStorage.getItem("authorized")), SLOW).toContain("eyJ");
  const authorized = await developer.evaluate(() => JSON.parse(window.localStorage.getItem("authorized")!));
  const token = (Object.values(authorized)[0] as { value: string }).value;
  const failed = await developer.request.get("/gw/sso-qa/notifications/v1/notifications?limit=zero", { headers: { authorization: `Bearer ${token}` } });
  expect(failed.status()).toBe(400);
  const { requestId } = await failed.json();

  await developer.goto("/settings/usage");
  await expect(developer.getByRole("heading", { name: "Your traffic" })).toBeVisible(SLOW);
  await developer.getByLabel("Request ID").fill(requestId);
  // The request log is written in batches off the gateway's path, so the row can take a moment to appear.
  await expect(async () => {
    await developer.getByRole("button", { name: "Look up" }).click();
    await expect(developer.getByRole("status", { name: `Request ${requestId}` })).toBeVisible({ timeout: 1_000 });
  }).toPass(SLOW);
  const found = developer.getByRole("status", { name: `Request ${requestId}` });
  await expect(found).toContainText("GET /v1/notifications");
  await expect(found).toContainText("400");
  await expect(found).toContainText("sso-qa");
  await expect(found.getByRole("link", { name: "validation-failed" })).toHaveAttribute("href", "/problems/validation-failed");

  // The page reads its charts and the lookup side by side, so the row can be committed between the two reads; now that it is found, the charts hold it too.
  await developer.reload();
  const byProblem = developer.getByRole("table", { name: "Error rate by problem type" });
  const failures = byProblem.getByRole("row").filter({ has: developer.getByRole("link", { name: "validation-failed" }) });
  await expect(failures).toContainText("400");
  await expect(failures).toContainText("%");

  await developer.getByLabel("Request ID").fill("req_not_mine");
  await developer.getByRole("button", { name: "Look up" }).click();
  await expect(developer.getByRole("status").filter({ hasText: "was not found among your requests" })).toBeVisible();
});

test("the admin console shows the same usage charts across all applications", async ({ signInAs }) => {
  const admin = await signInAs("admin");
  const refused = await admin.request.get("/gw/sso-qa/notifications/v1/notifications");
  expect(refused.status()).toBe(401);
  await admin.goto("/admin/usage?range=30d");
  await expect(admin.getByRole("figure", { name: /Requests per day/ })).toBeVisible(SLOW);
  await expect(admin.getByRole("table", { name: "Top operations" })).toBeVisible();
  // Calls without a token count too, under no application; their row appears once the batch is written.
  const missing = admin.getByRole("table", { name: "Error rate by problem type" }).getByRole("link", { name: "token-missing" });
  await expect(async () => {
    await admin.reload();
    await expect(missing).toBeVisible({ timeout: 1_000 });
  }).toPass(SLOW);
  await expect(missing).toHaveAttribute("href", "/problems/token-missing");
});

/** The admin CLI on the e2e server's database, as an operator runs it; the last line of its output as JSON. */
function admin(...args: string[]) {
  const output = execFileSync("npm", ["run", "--silent", "admin", "--", ...args, "--json"], {
    env: { ...process.env, APP_ENV: "test", DATABASE_URL: process.env.E2E_DATABASE_URL },
    encoding: "utf8",
  });
  return JSON.parse(output.trim().split("\n").at(-1)!);
}

/** A developer of their own with one credential in Global SSO QA, so that their usage holds only what the test calls. */
function developerWithCredential(name: string): Account & { clientId: string; clientSecret: string } {
  const account = { email: `${name}-${Date.now()}@example.com`, password: `${name}-password-1234` };
  admin("user", "create", "--email", account.email, "--password", account.password, "--role", "DEVELOPER");
  const { clientId, clientSecret } = admin("credential", "create", "--app", `Usage ${name}`, "--env", "sso-qa", "--owner", account.email);
  return { ...account, clientId, clientSecret };
}

/** How far the page scrolls past the bottom of its visible content. */
const blankBelowContent = (page: Page) =>
  page.evaluate(() => {
    const contentBottom = document.querySelector("main")!.getBoundingClientRect().bottom + window.scrollY;
    return document.documentElement.scrollHeight - Math.max(contentBottom, window.innerHeight);
  });

test("a developer without calls is told what the usage charts will show and when", async ({ signInAs }) => {
  const developer = await signInAs(developerWithCredential("no-calls"));
  await developer.goto("/settings/usage");
  await expect(developer.getByText("No calls in the last 7 days.")).toBeVisible(SLOW);
  await expect(developer.getByText(/Calls your applications make through the gateway appear here a few seconds after/)).toBeVisible();
  await expect(developer.getByRole("figure")).toHaveCount(0);
  await developer.getByLabel("Period").selectOption({ label: "Last 30 days" });
  await developer.getByRole("button", { name: "Show" }).click();
  await expect(developer.getByText("No calls in the last 30 days.")).toBeVisible(SLOW);
  expect(await seriousAccessibilityViolations(developer)).toEqual([]);
});

test("the usage charts have axes, read a period's value out on hover and on keyboard focus, and end where the page does", async ({ signInAs }) => {
  const account = developerWithCredential("charts");
  const developer = await signInAs(account);
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(account.clientId)}:${encodeURIComponent(account.clientSecret)}`).toString("base64")}`;
  const token = await developer.request.post("/gw/sso-qa/oauth2/token", { headers: { authorization: basic }, form: { grant_type: "client_credentials" } });
  const { access_token: accessToken } = await token.json();
  for (const query of ["", "?limit=2", "?limit=zero"]) {
    await developer.request.get(`/gw/sso-qa/notifications/v1/notifications${query}`, { headers: { authorization: `Bearer ${accessToken}` } });
  }

  // Four requests of the client in this hour: the token request and three calls, one of them refused.
  const requests = developer.getByRole("figure", { name: "Requests per hour" });
  // The request log is written in batches off the gateway's path, so the calls can take a moment to appear.
  await expect(async () => {
    await developer.goto("/settings/usage");
    await expect(requests.getByTestId("chart-readout")).toHaveText(/^Latest: .* UTC: 4 requests, 1 failed$/, { timeout: 1_000 });
  }).toPass(SLOW);

  // A value axis from 0, and the days of the week on the time axis.
  await expect(requests.getByText("0", { exact: true })).toBeVisible();
  await expect(requests.getByText("4", { exact: true })).toBeVisible();
  const days = requests.getByText(/^[A-Z][a-z]{2} \d{1,2}$/);
  expect(await days.count()).toBeGreaterThanOrEqual(5);
  await expect(days.first()).toBeVisible();
  await expect(developer.getByRole("figure", { name: "Latency per hour" }).getByText(/ ms$/).first()).toBeVisible();
  await expect(developer.getByText("Latency p95").locator("..")).toContainText("≈");
  await expect(developer.getByText(/Latencies are approximate \(≈\)/)).toBeVisible();

  const plot = requests.getByRole("slider", { name: "Requests per hour" });
  const readout = requests.getByTestId("chart-readout");
  const box = (await plot.boundingBox())!;
  await plot.hover({ position: { x: box.width - 1, y: box.height / 2 } });
  await expect(readout).toHaveText(/^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}, \d\d:00–\d\d:00 UTC: 4 requests, 1 failed$/);
  await plot.hover({ position: { x: 1, y: box.height / 2 } });
  await expect(readout).toHaveText(/UTC: 0 requests$/);

  await developer.mouse.move(0, 0);
  await plot.focus();
  await developer.keyboard.press("End");
  await expect(plot).toHaveAttribute("aria-valuetext", /UTC: 4 requests, 1 failed$/);
  await expect(readout).toHaveText(/UTC: 4 requests, 1 failed$/);
  await developer.keyboard.press("ArrowLeft");
  await expect(plot).toHaveAttribute("aria-valuenow", "166");
  await expect(readout).toHaveText(/UTC: 0 requests$/);
  const latency = developer.getByRole("slider", { name: "Latency per hour" });
  await latency.focus();
  await expect(latency).toHaveAttribute("aria-valuetext", /UTC: p95 ≈ [\d.,]+ ms, p50 ≈ [\d.,]+ ms$/);

  // The screen-reader tables of the three charts (168 rows each) take no room on the page.
  expect(await blankBelowContent(developer)).toBeLessThanOrEqual(0);
  expect(await seriousAccessibilityViolations(developer)).toEqual([]);
  await developer.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(developer)).toBe(0);
  expect(await blankBelowContent(developer)).toBeLessThanOrEqual(0);
});

/** An API whose v1 is deprecated, with three calls of `clientId` to v1 and one to v2 in the request log (e2e/seed-deprecation.ts). */
function seedDeprecation(command: "seed" | "remove", slug: string, clientId = "") {
  execFileSync("node", ["--import", "tsx", "--import", "./lib/runtime/server-only-hook.mjs", "e2e/seed-deprecation.ts", command, slug, clientId], {
    env: { ...process.env, APP_ENV: "test", DATABASE_URL: process.env.E2E_DATABASE_URL },
  });
}

test("a developer sees their calls to a deprecated version, and the admin console who still calls it", async ({ signInAs }) => {
  const caller = developerWithCredential("deprecated");
  const quiet = developerWithCredential("up-to-date");
  const slug = `orders-${Date.now()}`;
  seedDeprecation("seed", slug, caller.clientId);
  try {
    const developer = await signInAs(caller);
    await developer.goto("/settings/usage");
    const calls = developer.getByRole("table", { name: "Calls in the last 30 days to what is deprecated" });
    const row = calls.getByRole("row").filter({ hasText: caller.clientId });
    await expect(row).toHaveCount(1, SLOW);
    await expect(row.getByRole("cell").nth(1)).toHaveText(`Orders ${slug} v1`);
    await expect(row.getByRole("cell").nth(2)).toHaveText("3");
    await expect(row).toContainText("GET /v1/orders: 2 calls, last");
    await expect(row).toContainText("POST /v1/orders: 1 call, last");
    await expect(row).toContainText("30 June 2099");
    await expect(row).not.toContainText("/v2/orders");
    expect(await seriousAccessibilityViolations(developer)).toEqual([]);
    await developer.setViewportSize({ width: 375, height: 800 });
    expect(await horizontalOverflow(developer)).toBe(0);

    const upToDate = await signInAs(quiet);
    await upToDate.goto("/settings/usage");
    await expect(upToDate.getByText("None of your credentials called a deprecated API version or operation in the last 30 days.")).toBeVisible(SLOW);

    const admin = await signInAs("admin");
    await admin.goto("/admin");
    await admin.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Deprecations" }).click();
    const section = admin.getByRole("region", { name: `Orders ${slug} v1` });
    await expect(section).toContainText("Sunset 30 June 2099", SLOW);
    await expect(section).toContainText("No notice sent");
    const callerRow = section.getByRole("row").filter({ hasText: caller.clientId });
    await expect(callerRow.getByRole("cell")).toHaveText([
      caller.clientId,
      "Usage deprecated",
      caller.email,
      "sso-qa",
      "3",
      /UTC$/,
      /GET \/v1\/orders: 2 calls/,
    ]);
    await expect(section.getByRole("row")).toHaveCount(2);
    expect(await seriousAccessibilityViolations(admin)).toEqual([]);
    await admin.setViewportSize({ width: 375, height: 800 });
    expect(await horizontalOverflow(admin)).toBeLessThanOrEqual(0);
  } finally {
    seedDeprecation("remove", slug);
  }
});
