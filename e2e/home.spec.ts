import { execFileSync } from "node:child_process";
import { expect, horizontalOverflow, seriousAccessibilityViolations, test } from "./fixtures";

// Signing in and the request log's batches wait on a server that may share a busy machine.
test.setTimeout(120_000);
const SLOW = { timeout: 30_000 };

const SEEDED = ["Notifications API", "Global SSO Access Token", "Platform Access Token"];

test("the home page shows the APIs, each protected one with its way to try it, and the three steps, accessibly", async ({ page }) => {
  await page.goto("/");
  const apis = page.getByRole("region", { name: "APIs" });
  await expect(apis.getByRole("heading", { level: 3 })).toContainText(SEEDED);
  const notifications = apis.getByRole("article", { name: "Notifications API" });
  await expect(notifications.getByRole("link", { name: "Sign in and try it — Notifications API" })).toHaveAttribute(
    "href",
    `/login?callbackUrl=${encodeURIComponent("/apis/notifications?tab=reference&env=sso-qa&try=1")}`,
  );
  await expect(apis.getByRole("article", { name: "Global SSO Access Token" }).getByRole("link", { name: /try it/ })).toHaveCount(0);
  await expect(apis.getByRole("link", { name: "Browse the API catalog" })).toHaveAttribute("href", "/apis");
  const steps = page.getByRole("region", { name: "Your first call in three steps" }).getByRole("listitem");
  await expect(steps.getByRole("heading", { level: 3 })).toHaveText(["1. Get credentials", "2. Get a token", "3. Call"]);
  await expect(page.getByText("Your next step:")).toHaveCount(0);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
});

test("searching from the home page opens the catalog's results", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("searchbox", { name: "Search APIs" }).fill("fetch one notification");
  await page.getByRole("searchbox", { name: "Search APIs" }).press("Enter");
  await expect(page).toHaveURL(/\/apis\?q=fetch\+one\+notification/);
  await expect(page.getByRole("main").getByRole("article").getByRole("heading", { level: 2 })).toHaveText(["Notifications API"]);
});

test("without JavaScript the home page still lists the APIs and its search still works", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByRole("region", { name: "APIs" }).getByRole("heading", { level: 3 })).toContainText(SEEDED);
  await page.getByRole("searchbox", { name: "Search APIs" }).fill("platform");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/\/apis\?q=platform/);
  await expect(page.getByRole("main").getByRole("article").getByRole("heading", { level: 2 })).toContainText(["Platform Access Token"]);
  await context.close();
});

test("a signed-in developer sees their credentials, last token request, last call and next step", async ({ page, baseURL }) => {
  const email = `home-${Date.now()}@example.com`;
  const password = "home-page-password-1234";
  execFileSync("npm", ["run", "--silent", "admin", "--", "user", "create", "--email", email, "--password", password, "--role", "DEVELOPER"], {
    env: { ...process.env, APP_ENV: "test", DATABASE_URL: process.env.E2E_DATABASE_URL },
  });
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("main").getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/, SLOW);

  await page.goto("/");
  const steps = page.getByRole("region", { name: "Your first call in three steps" });
  await expect(steps).toContainText("You have no active credentials yet.");
  await expect(steps).toContainText("No calls with your credentials yet.");
  await expect(steps.locator('[aria-current="step"]')).toContainText("1. Get credentials");
  await expect(steps.getByRole("link", { name: "Create client credentials" })).toHaveAttribute("href", "/settings/credentials");

  const created = await page.request.post("/api/portal/credentials", {
    data: { application: "Home page app", environment: "sso-qa" },
    headers: { origin: baseURL! },
  });
  expect(created.status()).toBe(201);
  const { secret } = await created.json();
  await page.reload();
  await expect(steps).toContainText("You have 1 active credential: Global SSO QA.");
  await expect(steps.locator('[aria-current="step"]')).toContainText("2. Get a token");
  await expect(steps.getByRole("link", { name: "Make your first call in the browser" })).toHaveAttribute(
    "href",
    "/apis/notifications?tab=reference&env=sso-qa&try=1",
  );

  const basic = Buffer.from(`${secret.clientId}:${secret.clientSecret}`).toString("base64");
  const token = await page.request.post("/gw/sso-qa/oauth2/token", {
    form: { grant_type: "client_credentials" },
    headers: { authorization: `Basic ${basic}` },
  });
  expect(token.status()).toBe(200);
  const called = await page.request.get("/gw/sso-qa/notifications/v1/notifications", {
    headers: { authorization: `Bearer ${(await token.json()).access_token}` },
  });
  expect(called.status()).toBe(200);

  // The request log is written in batches off the gateway's path, so the rows can take a moment to appear.
  await expect(async () => {
    await page.reload();
    await expect(steps).toContainText(/Your last call: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, Notifications API, status 200\./, { timeout: 1_000 });
  }).toPass(SLOW);
  await expect(steps).toContainText(/Your last token request: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, Global SSO Access Token, status 200\./);
  await expect(steps.locator('[aria-current="step"]')).toHaveCount(0);
  await expect(steps.getByRole("link", { name: "See your usage" })).toHaveAttribute("href", "/settings/usage");
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
