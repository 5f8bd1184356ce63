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

test("a sign-up that signs in with its password is told it waits for approval; a wrong password is told nothing more", async ({ page }) => {
  const email = "e2e-waiting@example.com";
  const password = "a-long-e2e-password";
  await page.goto("/signup");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Name").fill("E2E Waiting");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("status")).toContainText("An administrator reviews new accounts");

  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  const waiting = page.getByRole("alert").filter({ hasText: "waiting" });
  await expect(waiting).toHaveText("Your account is waiting for an administrator's approval.");
  expect(await seriousAccessibilityViolations(page)).toEqual([]);

  await page.getByLabel("Password").fill("not-the-e2e-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "not right" })).toHaveText("The email or password is not right.");
  await expect(waiting).toBeHidden();
  await expect(page).toHaveURL(/\/login$/);
});
