import type { Page } from "@playwright/test";
import { expect, seriousAccessibilityViolations, test } from "./fixtures";

const CALLED = "/gw/platform-dev/notifications/v1/notifications";

/** The developer's test token for Platform Development, as the Reference hands it to Swagger UI. */
async function platformDevToken(developer: Page): Promise<string> {
  await developer.goto("/apis/notifications?env=platform-dev&tab=reference");
  await developer.getByRole("button", { name: "Use a test token" }).click();
  await expect(developer.getByRole("status").filter({ hasText: "Test token applied" })).toBeVisible();
  const authorized = await expect
    .poll(() => developer.evaluate(() => window.localStorage.getItem("authorized")))
    .toContain("eyJ")
    .then(() => developer.evaluate(() => JSON.parse(window.localStorage.getItem("authorized")!) as Record<string, { value: string }>));
  return Object.values(authorized)[0]!.value;
}

/** The rate-limit policy the gateway applies to a call with `token`; a credential's change reaches it within 5 s. */
async function appliedPolicy(developer: Page, token: string): Promise<string | undefined> {
  const response = await developer.request.get(CALLED, { headers: { authorization: `Bearer ${token}` } });
  return response.headers()["ratelimit-policy"];
}

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
  const token = await platformDevToken(developer);
  await expect.poll(() => appliedPolicy(developer, token), { timeout: 10_000 }).toBe(`"client";q=40;w=2`);
  // 90 calls at once: past the burst of 40 set here unless they took over 2.5 s, within the environment's 100.
  const statuses = await Promise.all(
    Array.from({ length: 90 }, () => developer.request.get(CALLED, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status())),
  );
  expect(statuses).toContain(429);
  await developer.goto("/settings/credentials");
  const credential = developer.getByRole("listitem", { name: "Demo Application in Platform Development" });
  await expect(credential.getByText("20 requests per second, bursts of 40 (set for this credential)")).toBeVisible();

  await admin.getByRole("button", { name: "Use the environment's default" }).click();
  await expect(admin.getByText(/\(the environment's default\)/)).toBeVisible();
  await developer.reload();
  await expect(credential.getByText(/\(the environment's default\)/)).toBeVisible();
  await expect.poll(() => appliedPolicy(developer, token), { timeout: 10_000 }).not.toBe(`"client";q=40;w=2`);
});

test("an admin sets an environment's default rate limit, and sets it back", async ({ signInAs }) => {
  const admin = await signInAs("admin");
  await admin.goto("/admin/environments");
  const section = admin.getByRole("region", { name: /Global SSO Production/ });
  const burst = section.getByLabel("Burst (requests at once)");
  const refill = section.getByLabel("Refill (requests per second)");
  const save = async (values: { burst: string; refill: string }) => {
    await burst.fill(values.burst);
    await refill.fill(values.refill);
    await section.getByRole("button", { name: "Save rate limit of Global SSO Production" }).click();
    await expect(section.getByRole("status").filter({ hasText: "Rate limit saved." })).toBeVisible();
  };
  const before = { burst: await burst.inputValue(), refill: await refill.inputValue() };
  await save({ burst: "120", refill: "60" });
  await admin.reload();
  await expect(burst).toHaveValue("120");
  await expect(refill).toHaveValue("60");
  await save(before);
  await admin.reload();
  await expect(burst).toHaveValue(before.burst);
});
