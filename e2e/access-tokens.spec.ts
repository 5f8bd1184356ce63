import { expect, seriousAccessibilityViolations, test } from "./fixtures";

test.setTimeout(120_000);
const SLOW = { timeout: 30_000 };

test("a developer creates an access token, sees it once, uses it, and revokes it", async ({ signInAs }) => {
  const developer = await signInAs("developer");
  await developer.goto("/settings/tokens");
  await expect(developer.getByRole("heading", { name: "Access tokens", level: 1 })).toBeVisible(SLOW);
  // Admin scopes are offered to administrators only.
  await expect(developer.getByRole("checkbox", { name: /admin:read/ })).toHaveCount(0);
  expect(await seriousAccessibilityViolations(developer)).toEqual([]);

  const name = `CI rotation ${Date.now()}`;
  await developer.getByLabel("Name").fill(name);
  await developer.getByRole("checkbox", { name: /credentials:read/ }).check();
  await developer.getByLabel("Expires in").selectOption("7");
  await developer.getByRole("button", { name: "Create token" }).click();

  const shown = developer.getByRole("region", { name: "New access token" });
  await expect(shown.getByRole("alert")).toContainText("shown only once");
  const token = (await shown.getByTestId("access-token").textContent()) ?? "";
  expect(token).toMatch(/^gpat_[A-Za-z0-9_-]{43}$/);
  expect(await seriousAccessibilityViolations(developer)).toEqual([]);

  const row = developer.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText(`…${token.slice(-4)}`);
  await expect(row).toContainText("credentials:read");
  await expect(row).toContainText("Active");
  await expect(row).toContainText("Never");

  const used = await developer.request.get("/api/v1/credentials", { headers: { authorization: `Bearer ${token}` } });
  expect(used.status()).toBe(200);
  await developer.reload();
  await expect(row).not.toContainText("Never");
  await expect(developer.getByTestId("access-token")).toHaveCount(0);

  developer.once("dialog", (dialog) => dialog.accept());
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await expect(row).toContainText("Revoked");
  const refused = await developer.request.get("/api/v1/credentials", { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
});
