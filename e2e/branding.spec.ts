import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { startServer, type TestServer } from "../tests/support/server";
import { expect, seriousAccessibilityViolations, test } from "./fixtures";

const BRAND = { name: "Acme Developer Hub", accent: "#0f766e", accentRgb: "rgb(15, 118, 110)" };

/**
 * Whether an element's colour (its background or its text) is dark: relative luminance under
 * 0.2. The browser reports palette colours in lab(), so a canvas turns them into sRGB first.
 */
function isDark(locator: Locator, property: "backgroundColor" | "color"): Promise<boolean> {
  return locator.evaluate((element, which) => {
    const context = document.createElement("canvas").getContext("2d")!;
    context.fillStyle = getComputedStyle(element)[which];
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = [...context.getImageData(0, 0, 1, 1).data].slice(0, 3).map((channel) => {
      const value = channel / 255;
      return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.2;
  }, property);
}

const darkPage = (page: Page) => isDark(page.locator("body"), "backgroundColor");

/** The reference loads once the visitor scrolls towards it (a signed-in developer's notes above it leave it near the fold); then its first operation shows. */
async function referenceReady(page: Page) {
  await page.mouse.wheel(0, 300);
  await expect(page.locator(".swagger-ui .opblock").first()).toBeVisible({ timeout: 30_000 });
}

test.describe("a portal its operators branded with PORTAL_*", () => {
  let server: TestServer;
  const files = mkdtempSync(join(tmpdir(), "gatehouse-brand-"));
  const logo = join(files, "acme-logo.svg");
  const favicon = join(files, "acme-icon.svg");

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    writeFileSync(logo, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#0f766e"/></svg>');
    writeFileSync(favicon, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0f766e"/></svg>');
    server = await startServer({ env: { PORTAL_NAME: BRAND.name, PORTAL_LOGO: logo, PORTAL_FAVICON: favicon, PORTAL_ACCENT: BRAND.accent } });
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test("shows its name in the header and the page titles, its logo, favicon and accent", async ({ page }) => {
    await page.goto(`${server.url}/`);
    const home = page.getByRole("banner").getByRole("link", { name: BRAND.name, exact: true });
    await expect(home).toBeVisible();
    await expect(home.locator("img")).toHaveAttribute("src", "/branding/logo");
    await expect(home.locator("img")).toHaveJSProperty("complete", true);
    expect(await home.locator("img").evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/branding/favicon");
    expect(await page.getByRole("banner").evaluate((header) => getComputedStyle(header).borderTopColor)).toBe(BRAND.accentRgb);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${BRAND.name} developer portal`);
    expect((await (await page.request.get(`${server.url}/llms.txt`)).text()).split("\n")[0]).toBe(`# ${BRAND.name} developer portal`);

    await page.goto(`${server.url}/apis`);
    await expect(page).toHaveTitle(`API catalog · ${BRAND.name}`);
    const search = page.getByRole("search", { name: "Filter APIs" }).getByRole("button", { name: "Apply" });
    expect(await search.evaluate((button) => getComputedStyle(button).backgroundColor)).toBe(BRAND.accentRgb);
    expect(await search.evaluate((button) => getComputedStyle(button).color)).toBe("rgb(255, 255, 255)");
  });

  test("serves the logo and favicon files, and /favicon.ico alike", async ({ request }) => {
    for (const [path, file] of [
      ["/branding/logo", logo],
      ["/branding/favicon", favicon],
      ["/favicon.ico", favicon],
    ] as const) {
      const response = await request.get(`${server.url}${path}`);
      expect(response.status(), path).toBe(200);
      expect(response.headers()["content-type"], path).toBe("image/svg+xml");
      expect(await response.text(), path).toBe(readFileSync(file, "utf8"));
      expect(response.headers()["content-security-policy"], path).toContain("default-src 'self'");
    }
  });

  test("keeps its name in the Reference, where Swagger UI repeats no title", async ({ page }) => {
    await page.goto(`${server.url}/apis/notifications?tab=reference&env=sso-qa`);
    await expect(page).toHaveTitle(`Notifications API · ${BRAND.name}`);
    await referenceReady(page);
    const execute = page.locator(".swagger-ui .btn.execute");
    await page.locator(".swagger-ui #operations-Notifications-listNotifications .opblock-summary").click();
    await expect(execute.first()).toBeVisible();
    expect(await execute.first().evaluate((button) => getComputedStyle(button).backgroundColor)).toBe(BRAND.accentRgb);
  });
});

test.describe("Gatehouse by default", () => {
  test("shows its own wordmark, name and favicon", async ({ page }) => {
    await page.goto("/apis");
    await expect(page).toHaveTitle("API catalog · Gatehouse");
    const home = page.getByRole("banner").getByRole("link", { name: "Gatehouse", exact: true });
    await expect(home.locator("svg")).toBeVisible();
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", "/branding/favicon");
    const icon = await page.request.get("/branding/favicon");
    expect(icon.headers()["content-type"]).toBe("image/svg+xml");
    expect(await icon.text()).toContain('fill="#1d4ed8"');
  });
});

test.describe("light and dark themes", () => {
  const PAGES = ["/", "/apis", "/apis/notifications?env=sso-qa", "/apis/notifications?tab=reference&env=sso-qa"];

  for (const colorScheme of ["light", "dark"] as const) {
    test(`follow a ${colorScheme} system, with no serious accessibility violations`, async ({ browser, baseURL }) => {
      test.setTimeout(240_000);
      const context = await browser.newContext({ baseURL, colorScheme });
      const page = await context.newPage();
      for (const path of PAGES) {
        await page.goto(path);
        if (path.includes("tab=reference")) await referenceReady(page);
        expect(await darkPage(page), path).toBe(colorScheme === "dark");
        expect(await seriousAccessibilityViolations(page), `${colorScheme} ${path}`).toEqual([]);
      }
      await context.close();
    });
  }

  test("switch with the header's toggle, and the choice outlives a reload", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, colorScheme: "light" });
    const page = await context.newPage();
    await page.goto("/apis");
    const toggle = page.getByRole("banner").getByRole("button", { name: "Dark theme" });
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    expect(await darkPage(page)).toBe(true);

    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    expect(await darkPage(page)).toBe(true);
    await expect(toggle).toHaveAttribute("aria-pressed", "true");

    await toggle.click();
    await page.goto("/apis/notifications?tab=reference&env=sso-qa");
    expect(await darkPage(page)).toBe(false);
    await context.close();
  });

  test("reach the Reference: Swagger UI turns dark with the page", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto("/apis/notifications?tab=reference&env=sso-qa");
    await referenceReady(page);
    const summary = page.locator(".swagger-ui .opblock-summary-path").first();
    expect(await isDark(page.getByRole("region", { name: "Interactive API reference" }), "backgroundColor")).toBe(true);
    expect(await isDark(summary, "color")).toBe(false);
    await context.close();
  });
});

test.describe("the Reference tab", () => {
  test("shows no second title or OAS badge: the page already names the API and its version", async ({ page }) => {
    await page.goto("/apis/notifications?tab=reference&env=sso-qa");
    await referenceReady(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    await expect(page.locator(".swagger-ui .info")).toHaveCount(0);
    await expect(page.locator(".swagger-ui").getByText(/OAS 3/)).toHaveCount(0);
  });

  test("asks for a pasted token until a test token is applied, then says it is", async ({ signInAs }) => {
    const developer = await signInAs("developer");
    await developer.goto("/apis/notifications?env=sso-qa&tab=reference");
    await referenceReady(developer);
    const main = developer.getByRole("main");
    await expect(main.getByText("choose Authorize and paste it")).toBeVisible();
    await developer.getByRole("button", { name: "Use a test token" }).click();
    await expect(main.getByText(/^Test token applied: calls go to the Global SSO QA gateway with it/)).toBeVisible();
    await expect(main.getByText("choose Authorize and paste it")).toHaveCount(0);
  });
});
