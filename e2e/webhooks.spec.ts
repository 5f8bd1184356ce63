import { expect, seriousAccessibilityViolations, test } from "./fixtures";

test.setTimeout(120_000);
const SLOW = { timeout: 30_000 };

test("a team owner adds a webhook endpoint under Settings → Webhooks, sees its secret once, rotates, disables and deletes it", async ({ signInAs }) => {
  const developer = await signInAs("developer");
  await developer.goto("/settings/email");
  await developer.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(developer.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible(SLOW);
  const team = developer
    .getByRole("region")
    .filter({ has: developer.getByRole("heading", { name: /\(owner\)/ }) })
    .first();

  // The e2e server keeps OUTBOUND_ALLOW_PRIVATE off: a loopback endpoint is refused, naming the field.
  await team.getByLabel("URL").fill("https://localhost/hooks");
  await team.getByRole("button", { name: "Add endpoint" }).click();
  await expect(team.getByText(/which is not a public address/)).toBeVisible();

  const url = "https://93.184.215.14/e2e-hooks";
  await team.getByLabel("URL").fill(url);
  await team.getByRole("checkbox", { name: /credential\.created/ }).uncheck();
  await team.getByRole("button", { name: "Add endpoint" }).click();
  const secret = team.getByTestId("webhook-secret");
  await expect(secret).toHaveText(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const first = await secret.textContent();
  const endpoint = team.getByRole("article", { name: `Endpoint ${url}` });
  await expect(endpoint).toContainText("Enabled");
  await expect(endpoint).not.toContainText("credential.created");
  expect(await seriousAccessibilityViolations(developer)).toEqual([]);
  await team.getByRole("button", { name: "I have stored it" }).click();
  await expect(secret).toHaveCount(0);

  await endpoint.getByRole("button", { name: "Rotate secret" }).click();
  await expect(secret).toHaveText(/^whsec_/);
  expect(await secret.textContent()).not.toBe(first);
  await expect(endpoint).toContainText("previous secret also signs until");

  await endpoint.getByRole("button", { name: "Disable" }).click();
  await expect(endpoint).toContainText("Disabled: disabled by a user");
  await developer.reload();
  await expect(developer.getByText(first!)).toHaveCount(0);
  await developer
    .getByRole("article", { name: `Endpoint ${url}` })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(developer.getByRole("article", { name: `Endpoint ${url}` })).toHaveCount(0);
});
