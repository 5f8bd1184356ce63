import type { Page, Request } from "@playwright/test";
import { expect, signedInPage, test } from "./fixtures";

// Until React has hydrated a page (here never: JavaScript is off) a client form has no handler.
// Submitted natively, it would GET its own URL with every field in the query: a password in
// the address bar, the history and every access log on the way.
test.describe("before the page has hydrated", () => {
  test.use({ javaScriptEnabled: false });

  /** The URLs the page requests while `act` runs: none of them may carry what was typed. */
  async function requestedDuring(page: Page, act: () => Promise<void>): Promise<string[]> {
    const urls: string[] = [];
    const listener = (request: Request) => urls.push(request.url());
    page.on("request", listener);
    await act();
    page.off("request", listener);
    return urls;
  }

  test("Enter in the sign-in form's password sends nothing, and its button waits", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill("developer@example.com");
    await page.getByLabel("Password").fill("typed-before-hydration");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeDisabled();
    const urls = await requestedDuring(page, () => page.getByLabel("Password").press("Enter"));
    expect(urls.filter((url) => url.includes("typed-before-hydration"))).toEqual([]);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel("Password")).toHaveValue("typed-before-hydration");
  });

  test("the sign-up and contact forms' buttons wait too", async ({ page }) => {
    await page.goto("/signup");
    await page.getByLabel("Password").fill("typed-before-hydration");
    await expect(page.getByRole("button", { name: "Sign up" })).toBeDisabled();
    const urls = await requestedDuring(page, () => page.getByLabel("Password").press("Enter"));
    expect(urls.filter((url) => url.includes("typed-before-hydration"))).toEqual([]);
    await expect(page).toHaveURL(/\/signup$/);

    await page.goto("/contact");
    await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
  });
});

// A button or picker whose work is in a handler does nothing before then: it stays disabled, so no click is lost.
test("before the page has hydrated, a signed-in page's action buttons and role picker wait", async ({ browser, baseURL }) => {
  const page = await signedInPage(browser, baseURL!, "developer", false);
  try {
    await page.goto("/settings/teams");
    const personal = page.getByRole("region", { name: /^Personal team/ });
    await expect(personal.getByRole("button", { name: "Leave team" })).toBeDisabled();
    await expect(personal.getByLabel("Role of developer@example.com")).toBeDisabled();
    await expect(page.getByRole("button", { name: "Dark theme" })).toBeDisabled();
  } finally {
    await page.context().close();
  }
});

test("once hydrated, the sign-in button is enabled", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
});

test("once hydrated, a signed-in page's action buttons and role picker are enabled", async ({ signInAs }) => {
  const page = await signInAs("developer");
  await page.goto("/settings/teams");
  const personal = page.getByRole("region", { name: /^Personal team/ });
  await expect(personal.getByRole("button", { name: "Leave team" })).toBeEnabled();
  await expect(personal.getByLabel("Role of developer@example.com")).toBeEnabled();
  await expect(page.getByRole("button", { name: "Dark theme" })).toBeEnabled();
});
