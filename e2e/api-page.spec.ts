import { execFileSync } from "node:child_process";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { horizontalOverflow, seriousAccessibilityViolations } from "./fixtures";

/** A credential made with the admin CLI on the e2e server's database, as an operator would. */
function createCredential(env: string): { clientId: string; clientSecret: string } {
  const output = execFileSync("npm", ["run", "--silent", "admin", "--", "credential", "create", "--app", "E2E", "--env", env, "--json"], {
    env: { ...process.env, APP_ENV: "test", DATABASE_URL: process.env.E2E_DATABASE_URL },
    encoding: "utf8",
  });
  return JSON.parse(output.trim().split("\n").at(-1)!);
}

const swaggerServer = (page: Page) => page.getByTestId("swagger-server");
const authorizeButton = (page: Page) => page.locator(".swagger-ui .auth-wrapper .authorize");
const responseStatus = (operation: Locator) => operation.locator(".live-responses-table tr.response .response-col_status");

test("the Client Credentials tab tells where to get credentials and how to call, per environment", async ({ page, baseURL }) => {
  await page.goto("/apis/notifications");
  await page.getByRole("navigation", { name: "API sections" }).getByRole("link", { name: "Client Credentials" }).click();
  await expect(page).toHaveURL(/tab=credentials&env=sso-qa/);
  await expect(page.getByRole("heading", { name: "Your Global SSO credentials for Global SSO QA" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
  for (const language of ["curl", "JavaScript (Node.js 20+)", "Python 3"]) {
    await expect(page.getByRole("figure").filter({ hasText: `${language}: first call` })).toContainText(`${baseURL}/gw/sso-qa/oauth2/token`);
  }
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const curl = page.getByRole("figure").filter({ hasText: "curl: first call" });
  await curl.getByRole("button", { name: "Copy: curl: first call" }).click();
  await expect(curl.getByRole("button", { name: "Copy: curl: first call" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await curl.locator("pre").textContent());
  await page.getByRole("navigation", { name: "Environment" }).getByRole("link", { name: "Platform Production" }).click();
  await expect(page).toHaveURL(/tab=credentials&env=platform-prod/);
  await expect(page.getByRole("heading", { name: "Your Platform credentials for Platform Production" })).toBeVisible();
  await expect(page.getByRole("figure").filter({ hasText: "curl: first call" })).toContainText(`curl -sS -X POST '${baseURL}/gw/platform-prod/oauth2/token'`);
});

test("the Reference tab authorizes with a pasted token, calls the gateway, and keeps the token across a reload", async ({ page, baseURL }) => {
  const { clientId, clientSecret } = createCredential("sso-qa");
  const tokenResponse = await page.request.post(`${baseURL}/gw/sso-qa/oauth2/token`, {
    headers: { authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString("base64")}` },
    form: { grant_type: "client_credentials" },
  });
  expect(tokenResponse.status()).toBe(200);
  const { access_token: accessToken } = await tokenResponse.json();

  await page.goto("/apis/notifications?env=sso-qa");
  await page.getByRole("link", { name: "Reference" }).click();
  await expect(swaggerServer(page)).toHaveText(`${baseURL}/gw/sso-qa/notifications`);
  await expect(page.locator(".swagger-ui .servers select option")).toHaveCount(1);

  await authorizeButton(page).click();
  const dialog = page.locator(".swagger-ui .modal-ux");
  await dialog.getByLabel("auth-bearer-value").fill(accessToken);
  await dialog.getByRole("button", { name: "Apply credentials" }).click();
  await expect(dialog.getByRole("button", { name: "Remove authorization" })).toBeVisible();
  await dialog.locator(".close-modal").click();

  const list = page.locator(".swagger-ui #operations-Notifications-listNotifications");
  await list.locator(".opblock-summary").click();
  // Swagger UI shows Execute before it has set up the operation's parameters; a
  // click in that instant leaves the call "loading" for good, which no person is fast enough to hit.
  await expect(list.locator('tr[data-param-name="limit"]')).toBeVisible();
  await list.getByRole("button", { name: "Execute" }).click();
  await expect(responseStatus(list)).toHaveText("200");

  await page.reload();
  await expect(authorizeButton(page)).toHaveClass(/locked/);
  const again = page.locator(".swagger-ui #operations-Notifications-listNotifications");
  await again.locator(".opblock-summary").click();
  await expect(again.locator('tr[data-param-name="limit"]')).toBeVisible();
  await again.getByRole("button", { name: "Execute" }).click();
  await expect(responseStatus(again)).toHaveText("200");
});

test("a failed try-it call shows plain advice from the problem type", async ({ page }) => {
  await page.goto("/apis/notifications?tab=reference&env=platform-dev");
  await page.evaluate(() => localStorage.removeItem("authorized"));
  await page.reload();
  const list = page.locator(".swagger-ui #operations-Notifications-listNotifications");
  await list.locator(".opblock-summary").click();
  await list.getByRole("button", { name: "Execute" }).click();
  await expect(responseStatus(list)).toHaveText(/^401/);
  const advice = list.getByRole("note", { name: "What to do" });
  await expect(advice).toContainText("No access token");
  await expect(advice.getByRole("link", { name: "More about this problem" })).toHaveAttribute("href", "/problems/token-missing");
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test("a failed token request in the Reference shows the token endpoint's advice, accessibly", async ({ page }) => {
  await page.goto("/apis/global-sso-token?tab=reference&env=sso-qa");
  const token = page.locator(".swagger-ui .opblock").filter({ hasText: "/oauth2/token" }).first();
  await token.locator(".opblock-summary").click();
  await token.getByLabel("grant_type").selectOption("client_credentials");
  await token.getByLabel("client_id").fill(`gci_nobody${Date.now()}`);
  await token.getByLabel("client_secret").fill("gsk_wrong");
  await token.getByRole("button", { name: "Execute" }).click();
  await expect(responseStatus(token)).toHaveText(/^401/);
  await expect(token.getByRole("note", { name: "What to do" })).toContainText("Client authentication failed");
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test("a token API shows no Authorize control, and switching environment moves the server", async ({ page, baseURL }) => {
  await page.goto("/apis/global-sso-token?tab=reference");
  await expect(swaggerServer(page)).toHaveText(`${baseURL}/gw/sso-qa`);
  await expect(page.locator(".swagger-ui .opblock").first()).toBeVisible();
  await expect(authorizeButton(page)).toHaveCount(0);
  await page.getByRole("navigation", { name: "Environment" }).getByRole("link", { name: "Global SSO Production" }).click();
  await expect(page).toHaveURL(/tab=reference&env=sso-prod/);
  await expect(swaggerServer(page)).toHaveText(`${baseURL}/gw/sso-prod`);
  await expect(authorizeButton(page)).toHaveCount(0);
});

test("the hook for a test token authorizes Swagger UI", async ({ page }) => {
  await page.goto("/apis/notifications?tab=reference&env=sso-prod");
  await expect(authorizeButton(page)).toBeVisible();
  await page.evaluate(() => localStorage.removeItem("authorized"));
  await page.evaluate(() => window.dispatchEvent(new CustomEvent("gatehouse:authorize", { detail: { token: "header.payload.signature" } })));
  await expect(authorizeButton(page)).toHaveClass(/locked/);
  expect(await page.evaluate(() => localStorage.getItem("authorized"))).toContain("header.payload.signature");
});

test("a problem type page explains what to do, accessibly, at 375 px", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/problems/token-wrong-environment");
  await expect(page.getByRole("heading", { level: 1, name: "Token belongs to another environment" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "What to do" })).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

for (const tab of ["overview", "reference", "credentials"]) {
  test(`the ${tab} tab has no serious accessibility violations and fits 375 px`, async ({ page }) => {
    await page.goto(`/apis/notifications?tab=${tab}&env=sso-qa`);
    // Swagger UI loads lazily, and axe reads all of it: both take long on a busy machine.
    test.setTimeout(120_000);
    if (tab === "reference") await expect(page.locator(".swagger-ui .opblock").first()).toBeVisible({ timeout: 30_000 });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    if (tab === "reference") {
      // Below the first screen of a phone, Swagger UI waits for the visitor to scroll (decision 026).
      await page.mouse.wheel(0, 400);
      await expect(page.locator(".swagger-ui .opblock").first()).toBeVisible({ timeout: 30_000 });
    }
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });
}

test("the Reference tab has one main landmark, starts Try it out without example filters, and stays accessible with an operation open", async ({ page }) => {
  // axe over Swagger UI with an operation open takes a while on a busy machine.
  test.setTimeout(120_000);
  await page.goto("/apis/notifications?tab=reference&env=sso-qa");
  const list = page.locator(".swagger-ui #operations-Notifications-listNotifications");
  await list.locator(".opblock-summary").click();
  await expect(list.locator('tr[data-param-name="limit"]')).toBeVisible();
  await expect(page.getByRole("main")).toHaveCount(1);
  await expect(page.getByRole("region", { name: "Interactive API reference" })).toBeVisible();
  for (const name of ["status", "since", "limit"]) {
    const field = list.locator(`tr[data-param-name="${name}"] input`);
    if ((await field.count()) > 0) await expect(field.first()).toHaveValue("");
  }
  await expect(list.locator('tr[data-param-name="status"]')).toContainText("Example: unread,read");
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});
