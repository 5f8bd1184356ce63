import { expect, type Page, test } from "@playwright/test";
import { horizontalOverflow, seriousAccessibilityViolations } from "./fixtures";

const cards = (page: Page) => page.getByRole("main").getByRole("article");
const cardTitles = (page: Page) => cards(page).getByRole("heading", { level: 2 });
const SEEDED = ["Global SSO Access Token", "Notifications API", "Platform Access Token"];

// Other specs may register more APIs on the shared server, so these assert on the seeded ones.

test("a visitor finds the Notifications API by searching and opens it", async ({ page }) => {
  await page.goto("/apis");
  await expect(cardTitles(page)).toContainText(SEEDED);
  await page.getByRole("searchbox", { name: "Search APIs" }).fill("notifications");
  await page.getByRole("searchbox", { name: "Search APIs" }).press("Enter");
  await expect(page).toHaveURL(/\/apis\?q=notifications/);
  await expect(cardTitles(page).filter({ hasText: "Access Token" })).toHaveCount(0);
  const card = cards(page).filter({ has: page.getByRole("heading", { name: "Notifications API" }) });
  await expect(card).toContainText("Protected");
  await expect(card).toContainText("1.0.0");
  await expect(card).toContainText("Global SSO QA, Global SSO Production, Platform Development, Platform Production");
  // The search also names the API's guides, whose titles hold its name.
  await expect(card.getByRole("list", { name: "Matching guides" })).toContainText("Getting started with the Notifications API");
  await card.getByRole("link", { name: "Notifications API", exact: true }).click();
  await expect(page).toHaveURL(/\/apis\/notifications$/);
  await expect(page.getByRole("heading", { level: 1, name: "Notifications API" })).toBeVisible();
});

test("searching for an operation's path or summary finds its API and names the operation", async ({ page }) => {
  for (const query of ["/v1/notifications/{id}", "Fetch one notification"]) {
    await page.goto("/apis");
    await page.getByRole("searchbox", { name: "Search APIs" }).fill(query);
    await page.getByRole("searchbox", { name: "Search APIs" }).press("Enter");
    await expect(cardTitles(page)).toHaveText(["Notifications API"]);
    const operations = cards(page).getByRole("list", { name: "Matching operations" });
    await expect(operations).toContainText("GET /v1/notifications/{id} — Fetch one notification");
  }
  await cards(page).getByRole("list", { name: "Matching operations" }).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/apis\/notifications\?tab=reference$/);
});

test("the filters narrow the catalog and stay in the URL", async ({ page }) => {
  await page.goto("/apis");
  await page.getByLabel("Credential type").selectOption("platform");
  await page.getByLabel("Environment").selectOption("platform-prod");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/env=platform-prod/);
  await expect(page).toHaveURL(/type=platform/);
  await expect(cardTitles(page)).toContainText(["Notifications API", "Platform Access Token"]);
  await expect(cardTitles(page).filter({ hasText: "Global SSO Access Token" })).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel("Environment")).toHaveValue("platform-prod");
  await expect(cardTitles(page).filter({ hasText: "Global SSO Access Token" })).toHaveCount(0);
  await page.getByRole("link", { name: "Clear" }).click();
  await expect(cardTitles(page)).toContainText(SEEDED);
});

test("the catalog loads no Swagger UI code", async ({ page }) => {
  const bodies: Promise<string>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") bodies.push(response.text());
  });
  await page.goto("/apis");
  await page.waitForLoadState("networkidle");
  const scripts = await Promise.all(bodies);
  expect(scripts.length).toBeGreaterThan(0);
  for (const source of scripts) expect(source).not.toMatch(/swagger-ui|SwaggerUI/);
});

test("the catalog has no serious accessibility violations and fits 375 px", async ({ page }) => {
  await page.goto("/apis");
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/apis?q=token");
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the catalog renders and searches", async ({ page }) => {
    await page.goto("/apis");
    await expect(cardTitles(page)).toContainText(SEEDED);
    await page.getByRole("searchbox", { name: "Search APIs" }).fill("platform");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/q=platform/);
    await expect(cardTitles(page)).toContainText(["Platform Access Token"]);
    // The Notifications API's guides name the Platform environments, so it is found too.
    await expect(cardTitles(page).filter({ hasText: "Global SSO Access Token" })).toHaveCount(0);
  });

  test("the API page's Overview and Client Credentials tabs render", async ({ page }) => {
    await page.goto("/apis/notifications");
    await expect(page.getByRole("heading", { name: "Changelog" })).toBeVisible();
    await expect(page.getByText("5 December 2022").first()).toBeVisible();
    await page.getByRole("link", { name: "Client Credentials" }).click();
    await expect(page.getByRole("heading", { name: "Your Global SSO credentials for Global SSO QA" })).toBeVisible();
  });
});

test("an API's guide is a page of its own, accessible at 375 px, with its Markdown a link away", async ({ page }) => {
  await page.goto("/apis/notifications");
  await page.getByRole("region", { name: "Guides" }).getByRole("link", { name: "Errors of the Notifications API" }).click();
  await expect(page).toHaveURL(/\/apis\/notifications\/guides\/errors$/);
  await expect(page.getByRole("heading", { level: 1, name: "Errors of the Notifications API" })).toBeVisible();
  await expect(page.getByRole("link", { name: "This guide as Markdown" })).toHaveAttribute("href", "/apis/notifications/guides/errors.md");
  await expect(
    page.getByRole("navigation", { name: "Guides of the Notifications API" }).getByRole("link", { name: "Errors of the Notifications API" }),
  ).toHaveAttribute("aria-current", "page");
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
});
