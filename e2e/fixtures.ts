import AxeBuilder from "@axe-core/playwright";
import { type Browser, expect, type Page, test as base } from "@playwright/test";
import { TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD } from "../tests/support/server";

export const ACCOUNTS = {
  admin: { email: "admin@example.com", password: TEST_ADMIN_PASSWORD },
  developer: { email: "developer@example.com", password: TEST_DEVELOPER_PASSWORD },
} as const;

export type Account = { email: string; password: string };

/**
 * Signs a fresh browser context in through next-auth's endpoints, skipping the login form: a seeded
 * account, or one a spec made. Its pages run JavaScript unless `javaScriptEnabled` is false.
 */
export async function signedInPage(browser: Browser, baseURL: string, who: keyof typeof ACCOUNTS | Account, javaScriptEnabled = true): Promise<Page> {
  const account = typeof who === "string" ? ACCOUNTS[who] : who;
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  const page = await context.newPage();
  const { csrfToken } = await (await page.request.get("/api/auth/csrf")).json();
  const response = await page.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: account.email, password: account.password, json: "true" },
    maxRedirects: 0,
  });
  // A refused sign-in still answers 200 or 302 (with ?error=); only the session cookie tells.
  const cookies = await context.cookies();
  if (!cookies.some((cookie) => cookie.name === "next-auth.session-token")) {
    throw new Error(`sign-in as ${account.email} was refused (${response.status()})`);
  }
  return page;
}

type Fixtures = { signInAs: (who: keyof typeof ACCOUNTS | Account) => Promise<Page> };

export const test = base.extend<Fixtures>({
  signInAs: async ({ browser, baseURL }, use) => {
    const pages: Page[] = [];
    await use(async (who) => {
      const page = await signedInPage(browser, baseURL!, who);
      pages.push(page);
      return page;
    });
    for (const page of pages) await page.context().close();
  },
});

export { expect } from "@playwright/test";

export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  // Right after a server action re-rendered a page, axe has found it without its <title> while the rest was
  // in place; the title comes back a moment later. A page that never gets one still fails here.
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
