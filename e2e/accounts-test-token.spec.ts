import { expect, test } from "./fixtures";

test("a signed-in developer hands a test token to Swagger UI in one click, and it calls the API", async ({ signInAs }) => {
  const developer = await signInAs("developer");
  await developer.goto("/apis/notifications?env=sso-qa&tab=reference");
  // The reference loads once the visitor scrolls towards it: the notes above it can leave it near the fold.
  await developer.mouse.wheel(0, 300);
  await expect(developer.locator(".swagger-ui .opblock").first()).toBeVisible();
  await developer.getByRole("button", { name: "Use a test token" }).click();
  await expect(developer.getByRole("status").filter({ hasText: "Test token applied" })).toContainText("expires in 15 minutes");
  const token = await expect
    .poll(() => developer.evaluate(() => window.localStorage.getItem("authorized")))
    .toContain("eyJ")
    .then(() => developer.evaluate(() => JSON.parse(window.localStorage.getItem("authorized")!)));
  const accessToken = (Object.values(token)[0] as { value: string }).value;
  const response = await developer.request.get("/gw/sso-qa/notifications/v1/notifications", { headers: { authorization: `Bearer ${accessToken}` } });
  expect(response.status()).toBe(200);
  expect(await developer.content()).not.toMatch(/gsk_[A-Za-z0-9_-]{43}/);
});

test("visitors are invited to sign in instead of getting a test token", async ({ page }) => {
  await page.goto("/apis/notifications?env=sso-qa&tab=reference");
  await expect(page.getByRole("link", { name: "Sign in" }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Use a test token" })).toHaveCount(0);
});
