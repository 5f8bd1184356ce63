import { execFileSync } from "node:child_process";
import type { Locator, Page } from "@playwright/test";
import { ACCOUNTS, expect, test } from "./fixtures";

/**
 * Counts what a person does on the way to a first call: each click, each field
 * filled and each URL typed is one interaction. Waiting for the page is not.
 */
function interactions(page: Page) {
  let count = 0;
  return {
    get count() {
      return count;
    },
    goto: (url: string) => (count++, page.goto(url)),
    click: (locator: Locator) => (count++, locator.click()),
    fill: (locator: Locator, value: string) => (count++, locator.fill(value)),
  };
}

// Signing in, loading Swagger UI and the first call each wait on the server; on a busy machine that takes longer than the defaults.
test.setTimeout(120_000);
const SLOW = { timeout: 30_000 };

const listOperation = (page: Page) => page.locator(".swagger-ui #operations-Notifications-listNotifications");
const responseStatus = (operation: Locator) => operation.locator(".live-responses-table tr.response .response-col_status");

async function signInThroughForm(steps: ReturnType<typeof interactions>, page: Page, email: string, password: string) {
  await steps.fill(page.getByLabel("Email"), email);
  await steps.fill(page.getByLabel("Password"), password);
  await steps.click(page.getByRole("main").getByRole("button", { name: "Sign in", exact: true }));
}

/** Swagger UI shows Execute before it has set up the operation's parameters; a person is never that fast. */
async function readyToExecute(operation: Locator) {
  await expect(operation.locator('tr[data-param-name="limit"]')).toBeVisible(SLOW);
}

test("a visitor with a credential gets from the home page to a 200 in at most 6 interactions, typing no secret", async ({ page }) => {
  const steps = interactions(page);
  await steps.goto("/");
  await steps.click(page.getByRole("article", { name: "Notifications API" }).getByRole("link", { name: "Sign in and try it" }));
  await signInThroughForm(steps, page, ACCOUNTS.developer.email, ACCOUNTS.developer.password);

  await expect(page).toHaveURL(/\/apis\/notifications\?tab=reference&env=sso-qa&try=1$/, SLOW);
  await expect(page.getByRole("status").filter({ hasText: "Test token applied" })).toBeVisible(SLOW);
  const operation = listOperation(page);
  await readyToExecute(operation);
  await steps.click(operation.getByRole("button", { name: "Execute" }));
  await expect(responseStatus(operation)).toHaveText("200", SLOW);
  expect(steps.count).toBeLessThanOrEqual(6);
  expect(await page.content()).not.toMatch(/gsk_[A-Za-z0-9_-]{43}/);
});

test("a signed-in developer without a credential creates one on the Reference tab and calls the API with it", async ({ page }) => {
  const email = `first-call-${Date.now()}@example.com`;
  const password = "first-call-password-1234";
  execFileSync("npm", ["run", "--silent", "admin", "--", "user", "create", "--email", email, "--password", password, "--role", "DEVELOPER"], {
    env: { ...process.env, APP_ENV: "test", DATABASE_URL: process.env.E2E_DATABASE_URL },
  });
  const steps = interactions(page);
  await steps.goto("/apis/notifications?env=platform-dev");
  await steps.click(page.getByRole("link", { name: "Sign in and try it" }));
  await signInThroughForm(steps, page, email, password);
  await expect(page).toHaveURL(/tab=reference&env=platform-dev&try=1$/, SLOW);

  await steps.click(page.getByRole("button", { name: "Create a credential in Platform Development" }));
  await expect(page.getByRole("region", { name: "New client secret" })).toBeVisible(SLOW);
  await expect(page.getByRole("status").filter({ hasText: "A test token of this credential is applied" })).toBeVisible(SLOW);
  const operation = listOperation(page);
  await readyToExecute(operation);
  await steps.click(operation.getByRole("button", { name: "Execute" }));
  await expect(responseStatus(operation)).toHaveText("200", SLOW);
  expect(steps.count).toBeLessThanOrEqual(8);

  await page.getByRole("link", { name: "Client Credentials" }).click();
  const mine = page.getByRole("table", { name: "Your credentials for Notifications API in Platform Development" });
  await expect(mine.getByRole("row")).toHaveCount(2, SLOW);
  await expect(mine).toContainText("My first application");
  await expect(mine).toContainText("Active");
});
