import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { ACCOUNTS, expect, test } from "./fixtures";

const basic = (clientId: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`;

async function tokenStatus(request: APIRequestContext, env: string, clientId: string, secret: string): Promise<number> {
  const response = await request.post(`/gw/${env}/oauth2/token`, {
    headers: { authorization: basic(clientId, secret), "content-type": "application/x-www-form-urlencoded" },
    data: "grant_type=client_credentials",
  });
  return response.status();
}

async function shownSecret(page: Page | Locator): Promise<{ clientId: string; secret: string }> {
  const panel = page.getByRole("region", { name: "New client secret" });
  await expect(panel).toBeVisible();
  const secret = (await panel.getByTestId("client-secret").textContent())!.trim();
  const clientId = (await panel.locator("dd code").first().textContent())!.trim();
  expect(secret).toMatch(/^gsk_[A-Za-z0-9_-]{43}$/);
  expect(clientId).toMatch(/^gci_/);
  return { clientId, secret };
}

test("a developer signs in with the form and lands on Client Credentials", async ({ page }) => {
  await page.goto("/settings/credentials");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fsettings%2Fcredentials/);
  await page.getByLabel("Email").fill(ACCOUNTS.developer.email);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "not right" })).toHaveText("The email or password is not right.");
  await page.getByLabel("Password").fill(ACCOUNTS.developer.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Client Credentials" })).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
  expect((await page.request.get("/settings/credentials", { maxRedirects: 0 })).status()).toBe(307);
});

test("signing out without next-auth's CSRF cookie, as after a browser restart, asks next-auth to confirm and still signs out", async ({ signInAs }) => {
  const developer = await signInAs("developer");
  await developer.context().clearCookies({ name: "next-auth.csrf-token" });
  await developer.goto("/settings/credentials");
  await developer.getByRole("button", { name: "Sign out" }).click();
  await expect(developer).toHaveURL(/\/api\/auth\/signout\?csrf=true/);
  await developer.getByRole("button", { name: "Sign out" }).click();
  await expect(developer.getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
  expect((await developer.request.get("/settings/credentials", { maxRedirects: 0 })).status()).toBe(307);
});

test("self-service credential, secret once, request for production, approval, first secret", async ({ signInAs }) => {
  const application = `E2E App ${Date.now()}`;
  const developer = await signInAs("developer");
  await developer.goto("/settings/credentials");
  await developer.getByLabel("Application", { exact: true }).fill(application);
  await developer.getByLabel("Environment", { exact: true }).selectOption({ label: "Global SSO QA" });
  await developer.getByRole("button", { name: "Create credential" }).click();
  const qa = await shownSecret(developer);
  expect(await tokenStatus(developer.request, "sso-qa", qa.clientId, qa.secret)).toBe(200);
  expect(await tokenStatus(developer.request, "sso-prod", qa.clientId, qa.secret)).toBe(401);

  await developer.reload();
  await expect(developer.getByText(qa.clientId)).toBeVisible();
  expect(await developer.content()).not.toContain(qa.secret);

  await developer.goto("/contact");
  await developer.getByLabel("Topic").selectOption({ label: "Request credentials" });
  await developer.getByLabel("Environment", { exact: true }).selectOption({ label: "Global SSO Production" });
  await developer.getByLabel("Application", { exact: true }).fill(application);
  await expect(developer.getByLabel("Email")).toHaveValue(ACCOUNTS.developer.email);
  await developer.getByLabel("Message").fill("Please approve production credentials for our launch.");
  await developer.getByRole("button", { name: "Send" }).click();
  await expect(developer.getByRole("status")).toContainText("Your message was sent");
  await developer.goto("/settings/requests");
  await expect(developer.getByText("pending")).toBeVisible();

  const admin = await signInAs("admin");
  await admin.goto("/admin/requests");
  const queued = admin.getByRole("listitem", { name: `Request from ${ACCOUNTS.developer.email}: ${application}` });
  await queued.getByRole("button", { name: "Approve" }).click();
  await expect(queued).toBeHidden();

  await developer.goto("/settings/requests");
  await expect(developer.getByText("approved")).toBeVisible();
  await developer.goto("/settings/credentials");
  const production = developer.getByRole("listitem", { name: `${application} in Global SSO Production` });
  await expect(production.getByText("No secret yet")).toBeVisible();
  await production.getByRole("button", { name: "Generate secret" }).click();
  const prod = await shownSecret(production);
  expect(await tokenStatus(developer.request, "sso-prod", prod.clientId, prod.secret)).toBe(200);

  const token = await developer.request.post("/gw/sso-prod/oauth2/token", {
    form: { grant_type: "client_credentials", client_id: prod.clientId, client_secret: prod.secret },
  });
  const { access_token: accessToken } = await token.json();
  const inbox = await developer.request.get("/gw/sso-prod/notifications/v1/notifications", { headers: { authorization: `Bearer ${accessToken}` } });
  expect(inbox.status()).toBe(200);
  expect((await inbox.json()).items.map((item: { title: string }) => item.title)).toContain("Access approved in Global SSO Production");
});

test("the developer is refused the admin console", async ({ signInAs }) => {
  const developer = await signInAs("developer");
  const response = await developer.goto("/admin");
  expect(response?.status()).toBe(403);
  await expect(developer.getByRole("heading", { name: "403 Forbidden" })).toBeVisible();
  const approve = await developer.request.post("/api/portal/admin/requests/req_any/approve", { headers: { origin: new URL(developer.url()).origin } });
  expect(approve.status()).toBe(403);
});

test("rotation keeps the old secret through the grace period and revocation stops both", async ({ signInAs }) => {
  const developer = await signInAs("developer");
  const application = `Rotation App ${Date.now()}`;
  await developer.goto("/settings/credentials");
  await developer.getByLabel("Application", { exact: true }).fill(application);
  await developer.getByLabel("Environment", { exact: true }).selectOption({ label: "Platform Development" });
  await developer.getByRole("button", { name: "Create credential" }).click();
  const first = await shownSecret(developer);

  const row = developer.getByRole("listitem", { name: `${application} in Platform Development` });
  await row.getByLabel("Old secret stays valid for").selectOption({ label: "1 hour" });
  await row.getByRole("button", { name: "Rotate secret" }).click();
  const second = await shownSecret(row);
  expect(second.secret).not.toBe(first.secret);
  expect(await tokenStatus(developer.request, "platform-dev", first.clientId, first.secret)).toBe(200);
  expect(await tokenStatus(developer.request, "platform-dev", first.clientId, second.secret)).toBe(200);

  developer.once("dialog", (dialog) => dialog.accept());
  await row.getByRole("button", { name: "Revoke" }).click();
  await expect(row.getByText("Revoked", { exact: true })).toBeVisible();
  // The token service caches credential state for at most 5 s (docs/DESIGN.md §6).
  for (const secret of [first.secret, second.secret]) {
    await expect.poll(() => tokenStatus(developer.request, "platform-dev", first.clientId, secret), { timeout: 7_000 }).toBe(401);
  }
});

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test("no client secret is in the built client bundles", () => {
  const bundles = join(import.meta.dirname, "..", process.env.NEXT_DIST_DIR || ".next", "static");
  const files = filesUnder(bundles);
  expect(files.length).toBeGreaterThan(0);
  expect(files.filter((file) => /gsk_[A-Za-z0-9_-]{43}/.test(readFileSync(file, "utf8")))).toEqual([]);
});
