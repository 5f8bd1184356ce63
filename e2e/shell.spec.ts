import { expect, test } from "@playwright/test";

test("the home page introduces the portal and links to the main sections", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Gatehouse developer portal" })).toBeVisible();
  const navigation = page.getByRole("navigation", { name: "Main" });
  for (const name of ["APIs", "Settings", "Contact Us"]) {
    await expect(navigation.getByRole("link", { name })).toBeVisible();
  }
});

test("a keyboard user can skip straight to the content", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
});

test("the home page fits a 375 px wide screen", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
