import { expect, test } from "./fixtures";

// Swagger UI and the portal pages wait on a server that may share a busy machine.
test.setTimeout(120_000);
const SLOW = { timeout: 30_000 };

test("a developer looks up their own failed request by the requestId of its problem", async ({ signInAs }) => {
  const developer = await signInAs("developer");
  await developer.goto("/apis/notifications?tab=reference&env=sso-qa&try=1");
  await expect(developer.getByRole("status").filter({ hasText: "Test token applied" })).toBeVisible(SLOW);
  // Swagger UI stores the token once it has loaded, which can be after the token was handed over.
  await expect.poll(() => developer.evaluate(() => window.localStorage.getItem("authorized")), SLOW).toContain("eyJ");
  const authorized = await developer.evaluate(() => JSON.parse(window.localStorage.getItem("authorized")!));
  const token = (Object.values(authorized)[0] as { value: string }).value;
  const failed = await developer.request.get("/gw/sso-qa/notifications/v1/notifications?limit=zero", { headers: { authorization: `Bearer ${token}` } });
  expect(failed.status()).toBe(400);
  const { requestId } = await failed.json();

  await developer.goto("/settings/usage");
  await expect(developer.getByRole("heading", { name: "Your traffic" })).toBeVisible(SLOW);
  await developer.getByLabel("Request ID").fill(requestId);
  // The request log is written in batches off the gateway's path, so the row can take a moment to appear.
  await expect(async () => {
    await developer.getByRole("button", { name: "Look up" }).click();
    await expect(developer.getByRole("status", { name: `Request ${requestId}` })).toBeVisible({ timeout: 1_000 });
  }).toPass(SLOW);
  const found = developer.getByRole("status", { name: `Request ${requestId}` });
  await expect(found).toContainText("GET /v1/notifications");
  await expect(found).toContainText("400");
  await expect(found).toContainText("sso-qa");
  await expect(found.getByRole("link", { name: "validation-failed" })).toHaveAttribute("href", "/problems/validation-failed");

  const byProblem = developer.getByRole("table", { name: "Error rate by problem type" });
  const failures = byProblem.getByRole("row").filter({ has: developer.getByRole("link", { name: "validation-failed" }) });
  await expect(failures).toContainText("400");
  await expect(failures).toContainText("%");

  await developer.getByLabel("Request ID").fill("req_not_mine");
  await developer.getByRole("button", { name: "Look up" }).click();
  await expect(developer.getByRole("status").filter({ hasText: "was not found among your requests" })).toBeVisible();
});

test("the admin console shows the same usage charts across all applications", async ({ signInAs }) => {
  const admin = await signInAs("admin");
  const refused = await admin.request.get("/gw/sso-qa/notifications/v1/notifications");
  expect(refused.status()).toBe(401);
  await admin.goto("/admin/usage?range=30d");
  await expect(admin.getByRole("figure", { name: /Requests per day/ })).toBeVisible(SLOW);
  await expect(admin.getByRole("table", { name: "Top operations" })).toBeVisible();
  // Calls without a token count too, under no application; their row appears once the batch is written.
  const missing = admin.getByRole("table", { name: "Error rate by problem type" }).getByRole("link", { name: "token-missing" });
  await expect(async () => {
    await admin.reload();
    await expect(missing).toBeVisible({ timeout: 1_000 });
  }).toPass(SLOW);
  await expect(missing).toHaveAttribute("href", "/problems/token-missing");
});
