import { expect, horizontalOverflow, seriousAccessibilityViolations, test } from "./fixtures";

test("a visitor sees each field's error next to it, then a confirmation", async ({ page }) => {
  await page.goto("/contact");
  await page.getByLabel("Topic").selectOption({ label: "Request API access" });
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Send" }).click();
  const expected: [string, string][] = [
    ["API", "Choose an API"],
    ["Environment", "Choose an environment"],
    ["Application", "Name the application"],
    ["Name", "Enter your name"],
    ["Email", "Enter an email address"],
    ["Message", "Write a message"],
  ];
  for (const [field, message] of expected) {
    await expect(page.getByLabel(field, { exact: true })).toHaveAccessibleDescription(new RegExp(message));
  }
  // The hint says the fields are marked below, so it stands above the first of them.
  const hint = page.getByRole("alert").filter({ hasText: "Check the fields marked below." });
  const [hintBox, topicBox] = [await hint.boundingBox(), await page.getByLabel("Topic").boundingBox()];
  expect(hintBox!.y).toBeLessThan(topicBox!.y);
  await page.getByLabel("API").selectOption({ label: "Notifications API" });
  await page.getByLabel("Environment").selectOption({ label: "Platform Production" });
  await page.getByLabel("Application", { exact: true }).fill("Visitor App");
  await page.getByLabel("Name").fill("Vera Visitor");
  await page.getByLabel("Email").fill("vera@example.com");
  await page.getByLabel("Message").fill("We would like to use the Notifications API in production.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("status")).toContainText("Your message was sent");
});

test("the contact form is accessible and fits 375 px", async ({ page }) => {
  await page.goto("/contact");
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
});
