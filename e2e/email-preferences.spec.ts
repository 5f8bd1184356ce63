import { expect, seriousAccessibilityViolations, test } from "./fixtures";

test.setTimeout(120_000);
const SLOW = { timeout: 30_000 };

test("a developer turns one email off under Settings → Email, and the choice stays", async ({ signInAs }) => {
  const developer = await signInAs("developer");
  await developer.goto("/settings/tokens");
  await developer.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Email" }).click();
  await expect(developer.getByRole("heading", { name: "Email", level: 1 })).toBeVisible(SLOW);
  // The e2e server has no SMTP_URL.
  await expect(developer.getByRole("status")).toContainText("sends no email");
  // Administrators' events are not offered to a developer.
  await expect(developer.getByRole("checkbox", { name: /signup\.pending/ })).toHaveCount(0);
  expect(await seriousAccessibilityViolations(developer)).toEqual([]);

  const revoked = developer.getByRole("checkbox", { name: /credential\.revoked/ });
  await expect(revoked).toBeChecked();
  await revoked.uncheck();
  await developer.getByRole("button", { name: "Save" }).click();
  await expect(developer.getByText("Saved.")).toBeVisible();

  await developer.reload();
  await expect(developer.getByRole("checkbox", { name: /credential\.revoked/ })).not.toBeChecked(SLOW);
  await expect(developer.getByRole("checkbox", { name: /credential\.rotated/ })).toBeChecked();

  await developer.getByRole("checkbox", { name: /credential\.revoked/ }).check();
  await developer.getByRole("button", { name: "Save" }).click();
  await expect(developer.getByText("Saved.")).toBeVisible();
});
