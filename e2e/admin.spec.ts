import { ACCOUNTS, expect, horizontalOverflow, seriousAccessibilityViolations, test } from "./fixtures";

const PAGES = [
  "/admin/requests",
  "/admin/credentials",
  "/admin/apis",
  "/admin/apis/new",
  "/admin/environments",
  "/admin/users",
  "/admin/notifications",
  "/admin/audit",
  "/admin/usage",
  "/admin/deprecations",
];

test("an admin rejects a request with a reason the requester then reads", async ({ signInAs }) => {
  const developer = await signInAs("developer");
  await developer.goto("/contact");
  await developer.getByLabel("Topic").selectOption({ label: "Other" });
  await developer.getByLabel("Message").fill("Can I get a demo of the gateway?");
  await developer.getByRole("button", { name: "Send" }).click();
  await expect(developer.getByRole("status")).toContainText("Your message was sent");

  const admin = await signInAs("admin");
  await admin.goto("/admin/requests");
  const request = admin.getByRole("listitem").filter({ hasText: "Can I get a demo of the gateway?" });
  await request.getByRole("button", { name: "Reject…" }).click();
  await request.getByRole("button", { name: "Reject request" }).click();
  await expect(request.getByLabel("Reason for rejecting")).toHaveAccessibleDescription("Give a reason");
  await request.getByLabel("Reason for rejecting").fill("We do not run demos; the docs cover it.");
  await request.getByRole("button", { name: "Reject request" }).click();
  await expect(request).toBeHidden();

  await developer.goto("/settings/requests");
  await expect(developer.getByText("Reason: We do not run demos; the docs cover it.")).toBeVisible();
  await admin.goto("/admin/audit?action=access-request.reject");
  await expect(admin.getByRole("cell", { name: "access-request.reject" })).toBeVisible();
});

test("an admin sends a notification to every client of an environment", async ({ signInAs }) => {
  const admin = await signInAs("admin");
  await admin.goto("/admin/notifications");
  await admin.getByLabel("Environment").selectOption({ label: "Platform Development" });
  await admin.getByLabel("Title").fill("Maintenance on Sunday");
  await admin.getByRole("button", { name: "Send notification" }).click();
  await expect(admin.getByRole("status").filter({ hasText: "Notification sent." })).toBeVisible();
});

// One test per page: axe over nine pages in one test outran its timeout on a slow machine, and a failure now names its page.
for (const path of PAGES) {
  test(`the admin page ${path} is accessible and fits 375 px`, async ({ signInAs }) => {
    const admin = await signInAs("admin");
    await admin.goto(path);
    expect(await seriousAccessibilityViolations(admin)).toEqual([]);
    await admin.setViewportSize({ width: 375, height: 800 });
    await admin.reload();
    expect(await horizontalOverflow(admin)).toBeLessThanOrEqual(0);
  });
}

test("an admin who signs in without a return path lands in the admin console, a developer in Settings", async ({ browser, baseURL }) => {
  for (const [who, landing, heading] of [
    ["admin", /\/admin\/requests$/, "Access requests"],
    ["developer", /\/settings\/credentials$/, "Client Credentials"],
  ] as const) {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Email").fill(ACCOUNTS[who].email);
    await page.getByLabel("Password").fill(ACCOUNTS[who].password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(landing);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await context.close();
  }
});

test("an admin who signs in from a page that asked for it goes back there", async ({ page }) => {
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fadmin%2Fusers$/);
  await page.getByLabel("Email").fill(ACCOUNTS.admin.email);
  await page.getByLabel("Password").fill(ACCOUNTS.admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
});

test("the sign-in page is accessible", async ({ page }) => {
  await page.goto("/login");
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
});

for (const path of ["/settings/credentials", "/settings/requests", "/settings/usage"]) {
  test(`the settings page ${path} is accessible and fits 375 px`, async ({ signInAs }) => {
    const developer = await signInAs("developer");
    await developer.goto(path);
    expect(await seriousAccessibilityViolations(developer)).toEqual([]);
    await developer.setViewportSize({ width: 375, height: 800 });
    await developer.reload();
    expect(await horizontalOverflow(developer)).toBeLessThanOrEqual(0);
  });
}
