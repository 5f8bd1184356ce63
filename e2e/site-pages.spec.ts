import { expect, test } from "@playwright/test";
import { seriousAccessibilityViolations } from "./fixtures";

test("an unknown portal URL shows the site's own 404 page with ways back, accessibly", async ({ page }) => {
  const response = await page.goto("/no-such-page/anywhere");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.getByRole("main").getByRole("link", { name: "Browse the APIs" }).click();
  await expect(page).toHaveURL(/\/apis$/);
});

test("the portal has a favicon", async ({ request }) => {
  const response = await request.get("/favicon.ico");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/image\//);
});
