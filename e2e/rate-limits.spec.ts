import { expect, seriousAccessibilityViolations, test } from "./fixtures";

test("an admin overrides a credential's rate limit, which its developer sees in Settings, then clears it", async ({ signInAs }) => {
  // Two signed-in users and six page loads.
  test.slow();
  const admin = await signInAs("admin");
  await admin.goto("/admin/credentials");
  const row = admin.getByRole("row").filter({ hasText: "Demo Application" }).filter({ hasText: "Platform Development" });
  await row.getByRole("link").click();
  await expect(admin.getByRole("heading", { level: 1, name: /^Credential gci_/ })).toBeVisible();
  expect(await seriousAccessibilityViolations(admin)).toEqual([]);
  await admin.getByLabel("Burst (requests at once)").fill("40");
  await admin.getByLabel("Refill (requests per second)").fill("many");
  await admin.getByRole("button", { name: "Save rate limit" }).click();
  await expect(admin.getByLabel("Refill (requests per second)")).toHaveAccessibleDescription("Enter a whole number");
  await admin.getByLabel("Refill (requests per second)").fill("20");
  await admin.getByRole("button", { name: "Save rate limit" }).click();
  await expect(admin.getByRole("status").filter({ hasText: "Rate limit saved." })).toBeVisible();
  await expect(admin.getByText("20 requests per second, bursts of 40 (set for this credential)")).toBeVisible();

  const developer = await signInAs("developer");
  await developer.goto("/settings/credentials");
  const credential = developer.getByRole("listitem", { name: "Demo Application in Platform Development" });
  await expect(credential.getByText("20 requests per second, bursts of 40 (set for this credential)")).toBeVisible();

  await admin.getByRole("button", { name: "Use the environment's default" }).click();
  await expect(admin.getByText(/\(the environment's default\)/)).toBeVisible();
  await developer.reload();
  await expect(credential.getByText(/\(the environment's default\)/)).toBeVisible();
});

test("an admin sets an environment's default rate limit", async ({ signInAs }) => {
  const admin = await signInAs("admin");
  await admin.goto("/admin/environments");
  const section = admin.getByRole("region", { name: /Global SSO Production/ });
  await section.getByLabel("Burst (requests at once)").fill("120");
  await section.getByLabel("Refill (requests per second)").fill("60");
  await section.getByRole("button", { name: "Save rate limit of Global SSO Production" }).click();
  await expect(section.getByRole("status").filter({ hasText: "Rate limit saved." })).toBeVisible();
  await admin.reload();
  await expect(section.getByLabel("Burst (requests at once)")).toHaveValue("120");
});
