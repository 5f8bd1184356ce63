import { expect, seriousAccessibilityViolations, test } from "./fixtures";

test.setTimeout(120_000);
const SLOW = { timeout: 30_000 };

test("a developer creates an access token, sees it once, uses it, and revokes it", async ({ signInAs }) => {
  const developer = await signInAs("developer");
  await developer.goto("/settings/tokens");
  await expect(developer.getByRole("heading", { name: "Access tokens", level: 1 })).toBeVisible(SLOW);
  // Admin scopes are offered to administrators only.
  await expect(developer.getByRole("checkbox", { name: /admin:read/ })).toHaveCount(0);
  await expect(developer.getByRole("checkbox", { name: /teams:read/ })).toHaveCount(1);
  await expect(developer.getByRole("checkbox", { name: /teams:write/ })).toHaveCount(1);
  expect(await seriousAccessibilityViolations(developer)).toEqual([]);

  const name = `CI rotation ${Date.now()}`;
  await developer.getByLabel("Name").fill(name);
  await developer.getByRole("checkbox", { name: /credentials:read/ }).check();
  await developer.getByLabel("Expires in").selectOption("7");
  await developer.getByRole("button", { name: "Create token" }).click();

  const shown = developer.getByRole("region", { name: "New access token" });
  // The run's first write through the portal API: a cold server loads its route on this call.
  await expect(shown.getByRole("alert")).toContainText("shown only once", SLOW);
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

test("the catalog lists the management API, whose Reference authorizes with a personal access token and calls /api/v1", async ({ signInAs, baseURL }) => {
  const developer = await signInAs("developer");
  await developer.goto("/settings/tokens");
  await developer.getByLabel("Name").fill(`Reference ${Date.now()}`);
  await developer.getByRole("checkbox", { name: /credentials:read/ }).check();
  await developer.getByRole("button", { name: "Create token" }).click();
  const token = (await developer.getByRole("region", { name: "New access token" }).getByTestId("access-token").textContent()) ?? "";
  expect(token).toMatch(/^gpat_/);

  await developer.goto("/apis");
  const card = developer
    .getByRole("main")
    .getByRole("article")
    .filter({ has: developer.getByRole("heading", { name: "Gatehouse Management API" }) });
  await expect(card).toContainText("Personal access token");
  await card.getByRole("link", { name: "Gatehouse Management API" }).click();
  await expect(developer).toHaveURL(/\/apis\/management$/);
  await expect(developer.getByRole("heading", { level: 1, name: "Gatehouse Management API" })).toBeVisible();
  await expect(developer.getByRole("main")).toContainText("Settings → Access tokens");
  const sections = developer.getByRole("navigation", { name: "API sections" });
  await expect(sections.getByRole("link", { name: "Client Credentials" })).toHaveCount(0);
  expect(await seriousAccessibilityViolations(developer)).toEqual([]);

  await sections.getByRole("link", { name: "Reference" }).click();
  await expect(developer).toHaveURL(/\/apis\/management\?tab=reference$/);
  await expect(developer.getByTestId("swagger-server")).toHaveText(`${baseURL}/api/v1`, SLOW);
  await developer.locator(".swagger-ui .auth-wrapper .authorize").click();
  const dialog = developer.locator(".swagger-ui .modal-ux");
  await dialog.getByLabel("auth-bearer-value").first().fill(token);
  await dialog.getByRole("button", { name: "Apply credentials" }).first().click();
  await dialog.locator(".close-modal").click();

  const list = developer.locator(".swagger-ui #operations-Credentials-listCredentials");
  await list.locator(".opblock-summary").click();
  // Try it out is on from the start; Execute works once the operation's panel is set up.
  await expect(list.getByRole("button", { name: "Cancel" })).toBeVisible();
  await list.getByRole("button", { name: "Execute" }).click();
  await expect(list.locator(".live-responses-table tr.response .response-col_status")).toHaveText("200", SLOW);
  await expect(list.locator(".live-responses-table tr.response .response-col_description")).toContainText("credentials");
});
