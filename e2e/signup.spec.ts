import { expect, test } from "@playwright/test";
import { seriousAccessibilityViolations } from "./fixtures";

test("a visitor finds sign-up from sign-in, registers, and is told the account waits for approval, accessibly", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign up" })).toBeVisible();
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.getByLabel("Email").fill("e2e-signup@example.com");
  await page.getByLabel("Name").fill("E2E Signup");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText("must be at least 12 characters")).toBeVisible();
  await page.getByLabel("Password").fill("a-long-e2e-password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("status")).toContainText("An administrator reviews new accounts");
});
