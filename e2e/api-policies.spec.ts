import { expect, seriousAccessibilityViolations, test } from "./fixtures";

const DOCUMENT = JSON.stringify({
  openapi: "3.1.0",
  info: { title: "Shelf", version: "1.0.0" },
  paths: { "/v1/items/{id}": { get: { summary: "An item", responses: { "200": { description: "An item" } } } } },
});

const SHELF = {
  name: "Shelf with policies",
  slug: "shelf-policies",
  summary: "Items on the shelf.",
  version: "1.0.0",
  visibility: "protected",
  environments: [{ slug: "platform-dev", upstreamUrl: "http://127.0.0.1:9/shelf" }],
  openapiDocument: DOCUMENT,
};

test("an admin sets an API's gateway policies as JSON on its page, each error shown beside the field", async ({ signInAs }) => {
  test.slow();
  const admin = await signInAs("admin");
  await admin.goto("/admin/apis");
  const registered = await admin.evaluate(
    async (body) =>
      (await fetch("/api/portal/admin/apis", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).status,
    SHELF,
  );
  expect(registered).toBe(201);
  await admin.goto("/admin/apis/shelf-policies");
  await expect(admin.getByRole("heading", { name: "Gateway policies" })).toBeVisible();
  const field = admin.getByLabel("Policies (JSON)");
  await expect(field).toHaveValue("{}");
  const save = admin.getByRole("button", { name: "Save policies" });

  await field.fill("{ routes: }");
  await save.click();
  await expect(field).toHaveAccessibleDescription(/Not JSON/);
  await field.fill('{ "routes": { "GET /v1/itemz/{id}": {} }, "policies": { "responseCache": { "ttlSeconds": 30, "colour": "blue" } } }');
  await save.click();
  await expect(field).toHaveAccessibleDescription(/policies\.responseCache\.colour: is not a known field/);
  await field.fill('{ "routes": { "GET /v1/itemz/{id}": {} } }');
  await save.click();
  await expect(field).toHaveAccessibleDescription(
    /routes\.GET \/v1\/itemz\/\{id\}: "GET \/v1\/itemz\/\{id\}" names no operation: no document of v1 declares it/,
  );
  await expect(admin.getByRole("alert").filter({ hasText: "Check the fields" })).toBeVisible();

  await field.fill(
    '{ "policies": { "requestValidation": { "mode": "enforce" } }, "routes": { "GET /v1/items/{id}": { "responseCache": { "ttlSeconds": 300 } } } }',
  );
  await save.click();
  await expect(admin.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  const table = admin.getByRole("table", { name: "Gateway policies of shelf-policies" });
  await expect(table.getByRole("row", { name: /Every route Request validation: enforce/ })).toBeVisible();
  await expect(table.getByRole("row", { name: /GET \/v1\/items\/\{id\} Request validation: as every route Response cache: 300 s/ })).toBeVisible();
  await admin.reload();
  await expect(admin.getByLabel("Policies (JSON)")).toHaveValue(/"ttlSeconds": 300,\n\s+"shared": false/);
  expect(await seriousAccessibilityViolations(admin)).toEqual([]);
});
