import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

/** Every CSP violation the page reports, through the DOM event and the console alike. */
async function watchCspViolations(page: Page): Promise<() => Promise<string[]>> {
  const console: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) console.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return async () => [...console, ...(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []))];
}

test("portal pages, portal APIs, raw OpenAPI documents and gateway answers carry the security headers", async ({ request }) => {
  for (const path of ["/", "/apis", "/login", "/api/health", "/apis/notifications/openapi.json?env=sso-qa", "/apis/notifications/openapi.yaml?env=sso-qa"]) {
    const response = await request.get(path);
    const headers = response.headers();
    expect(headers["x-content-type-options"], path).toBe("nosniff");
    expect(headers["x-frame-options"], path).toBe("DENY");
    expect(headers["referrer-policy"], path).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"], path).toContain("camera=()");
    const csp = headers["content-security-policy"] ?? "";
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    // PUBLIC_URL of the e2e server is http, so no HSTS.
    expect(headers["strict-transport-security"], path).toBeUndefined();
  }
  const gateway = await request.get("/gw/sso-qa/notifications/v1/notifications");
  expect(gateway.status()).toBe(401);
  expect(gateway.headers()["x-content-type-options"]).toBe("nosniff");
});

test("the nonce changes with every page", async ({ request }) => {
  const nonce = async () => /'nonce-([^']+)'/.exec((await request.get("/apis")).headers()["content-security-policy"] ?? "")?.[1];
  expect(await nonce()).not.toBe(await nonce());
});

test("no CSP violation while working the catalog and Swagger UI, including Execute", async ({ page }) => {
  test.slow();
  const violations = await watchCspViolations(page);
  await page.goto("/apis");
  await page
    .getByRole("link", { name: /Notifications/ })
    .first()
    .click();
  await page.getByRole("link", { name: "Reference" }).click();
  const list = page.locator(".swagger-ui #operations-Notifications-listNotifications");
  await list.locator(".opblock-summary").click();
  await expect(list.locator('tr[data-param-name="limit"]')).toBeVisible();
  await list.getByRole("button", { name: "Execute" }).click();
  await expect(list.locator(".live-responses-table tr.response .response-col_status")).toHaveText("401");
  expect(await violations()).toEqual([]);
});

test("no CSP violation in Settings and the admin console", async ({ signInAs }) => {
  test.slow();
  const page = await signInAs("admin");
  const violations = await watchCspViolations(page);
  for (const path of ["/settings/credentials", "/settings/requests", "/admin", "/admin/requests", "/admin/apis", "/admin/usage"]) {
    await page.goto(path);
    await expect(page.getByRole("main")).toBeVisible();
    await page.waitForLoadState("load");
  }
  expect(await violations()).toEqual([]);
});
