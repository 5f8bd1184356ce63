import { expect, test } from "./fixtures";

const DOCUMENT = JSON.stringify({
  openapi: "3.1.0",
  info: { title: "Inventory", version: "1.0.0" },
  paths: { "/v1/items": { get: { summary: "List items", responses: { "200": { description: "Items" } } } } },
});

test("an admin registers an API with a pasted OpenAPI document that is checked on save", async ({ signInAs }) => {
  // Six saves of the form and three page loads.
  test.slow();
  const admin = await signInAs("admin");
  await admin.goto("/admin/apis/new");
  await admin.getByLabel("Name").fill("Inventory API");
  await admin.getByLabel("Slug").fill("inventory");
  await admin.getByLabel("Summary").fill("Stock levels of the warehouse.");
  await admin.getByLabel("Scopes").fill("inventory:read");
  await admin.getByRole("checkbox", { name: "Platform Development" }).check();
  await admin.getByLabel("Upstream targets in Platform Development").fill("http://127.0.0.1:9/inventory");
  await admin.getByLabel("OpenAPI document (JSON or YAML)").fill("swagger: '2.0'");
  await admin.getByRole("button", { name: "Create API" }).click();
  await expect(admin.getByLabel("OpenAPI document (JSON or YAML)")).toHaveAccessibleDescription(/\/openapi: must be an OpenAPI version 3\.0\.x or 3\.1\.x/);
  await expect(admin.getByRole("alert").filter({ hasText: "Check the fields" })).toBeVisible();

  // Each error of a document that is OpenAPI but broken, with its JSON pointer.
  await admin
    .getByLabel("OpenAPI document (JSON or YAML)")
    .fill("openapi: 3.1.0\ninfo: {title: Inventory}\npaths:\n  /v1/items:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Gone'}\n");
  await admin.getByRole("button", { name: "Create API" }).click();
  const description = admin.getByLabel("OpenAPI document (JSON or YAML)");
  await expect(description).toHaveAccessibleDescription(/\/info: must have required property 'version'/);
  await expect(description).toHaveAccessibleDescription(/\/paths\/~1v1~1items\/get\/responses\/200\/\$ref: points nowhere/);

  await admin.getByLabel("OpenAPI document (JSON or YAML)").fill(DOCUMENT);
  await admin.getByRole("button", { name: "Create API" }).click();
  await expect(admin).toHaveURL(/\/admin\/apis\/inventory$/);
  await expect(admin.getByRole("heading", { name: "Edit Inventory API" })).toBeVisible();
  await expect(admin.getByRole("heading", { name: "Upstream health" })).toBeVisible();

  // A second target with twice the weight; a weight that is not a number is named.
  const targets = admin.getByLabel("Upstream targets in Platform Development");
  await targets.fill("http://127.0.0.1:9/inventory\nhttp://127.0.0.1:10/inventory heavy");
  await admin.getByRole("button", { name: "Save API" }).click();
  await expect(targets).toHaveAccessibleDescription(/number/i);
  await targets.fill("http://127.0.0.1:9/inventory\nhttp://127.0.0.1:10/inventory 2");
  const settings = admin.getByLabel("Health checks, retries and limits in Platform Development (JSON)");
  await settings.fill('{ "healthCheck": { "path": "health" } }');
  await admin.getByRole("button", { name: "Save API" }).click();
  await expect(settings).toHaveAccessibleDescription(/healthCheck\.path: Start the path with \//);
  await settings.fill('{ "healthCheck": { "path": "/health" }, "retries": 2 }');
  await admin.getByRole("button", { name: "Save API" }).click();
  await expect(admin.getByText("Saved.")).toBeVisible();
  await admin.reload();
  await expect(admin.getByLabel("Upstream targets in Platform Development")).toHaveValue("http://127.0.0.1:9/inventory\nhttp://127.0.0.1:10/inventory 2");
  await expect(admin.getByLabel("Health checks, retries and limits in Platform Development (JSON)")).toHaveValue(/"retries": 2/);

  await admin.goto("/apis/inventory?env=platform-dev");
  await expect(admin.getByRole("heading", { level: 1, name: "Inventory API" })).toBeVisible();
});
