import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, horizontalOverflow, seriousAccessibilityViolations, test } from "./fixtures";
import type { Locator, Page } from "@playwright/test";

const folder = mkdtempSync(join(tmpdir(), "gatehouse-e2e-versions-"));

/** The admin CLI against the run's database, as an operator runs it. */
function admin(...args: string[]): string {
  return execFileSync("npm", ["run", "--silent", "admin", "--", ...args], {
    env: { ...process.env, APP_ENV: "test", DATABASE_URL: process.env.E2E_DATABASE_URL },
    encoding: "utf8",
  });
}

const parcelsDocument = (version: string) => `openapi: 3.1.0
info: { title: Parcels, version: ${version.slice(1)}.0.0 }
paths:
  /${version}/parcels:
    get:
      summary: List parcels (${version})
      operationId: list-parcels
      responses:
        "200": { description: The parcels }
  /${version}/parcels/{id}:
    get:
      summary: One parcel (${version})
      operationId: get-parcel
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200": { description: The parcel }
`;

test.beforeAll(() => {
  writeFileSync(join(folder, "parcels-v1.yaml"), parcelsDocument("v1"));
  writeFileSync(join(folder, "parcels-v2.yaml"), parcelsDocument("v2"));
  writeFileSync(
    join(folder, "gatehouse.yaml"),
    `apis:
  - slug: e2e-parcels
    name: Parcels API
    summary: Parcels in two versions
    visibility: protected
    environments:
      sso-qa:
        targets: [{ url: "http://127.0.0.1:9" }]
    versions:
      - version: v1
        openapi: ./parcels-v1.yaml
        status: deprecated
        deprecatedAt: 2026-11-01
        sunsetAt: 2099-06-30
      - version: v2
        openapi: ./parcels-v2.yaml
        status: current
`,
  );
  admin("config", "apply", "-f", join(folder, "gatehouse.yaml"));
  admin("api", "deprecate", "--api", "e2e-parcels", "--version", "v2", "--operation", "GET /v2/parcels/{id}");
});

/**
 * Swagger UI loads on the visitor's first scroll when the page's notes push it below the fold
 * (decision 026). A scroll made while the page is still being replaced after a click is lost,
 * so this scrolls again until `operation` shows.
 */
async function scrollUntilShown(page: Page, operation: Locator): Promise<void> {
  await expect(async () => {
    await page.mouse.wheel(0, 400);
    await expect(operation).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}

test("the version switcher changes the Reference and the samples, and deprecated marks are visible", async ({ page }) => {
  // Four loads of Swagger UI, each after a page of its own.
  test.setTimeout(120_000);
  await page.goto("/apis/e2e-parcels?tab=reference");
  const versions = page.getByRole("navigation", { name: "Version" });
  await expect(versions.getByRole("link", { name: "v2" })).toHaveAttribute("aria-current", "true");
  const operations = page.locator(".swagger-ui .opblock");
  await scrollUntilShown(page, operations.filter({ hasText: "/v2/parcels/{id}" }));
  // The operation an admin deprecated is marked in the Reference, the other is not.
  await expect(operations.filter({ hasText: "/v2/parcels/{id}" })).toHaveClass(/opblock-deprecated/);
  await expect(operations.filter({ hasText: "List parcels (v2)" })).not.toHaveClass(/opblock-deprecated/);
  // A visitor can hide the deprecated operations, and show them again.
  await page.getByRole("link", { name: "Hide deprecated operations" }).click();
  await expect(page).toHaveURL(/deprecated=hide/);
  await scrollUntilShown(page, operations.filter({ hasText: "List parcels (v2)" }));
  await expect(operations.filter({ hasText: "/v2/parcels/{id}" })).toHaveCount(0);
  await page.getByRole("link", { name: "Show deprecated operations" }).click();
  await expect(page).not.toHaveURL(/deprecated=hide/);
  await scrollUntilShown(page, operations.filter({ hasText: "/v2/parcels/{id}" }));
  const samples = page.getByRole("region", { name: /Code samples/ });
  await expect(samples).toContainText("/v2/parcels/{id}");
  await expect(samples).not.toContainText("/v1/parcels");

  await versions.getByRole("link", { name: "v1 (deprecated)" }).click();
  await expect(page).toHaveURL(/\/apis\/e2e-parcels\?tab=reference&env=sso-qa&version=v1$/);
  await expect(page.getByRole("note")).toContainText("Version v1 is deprecated since 2026-11-01. Its calls stop working on 2099-06-30 (sunset)");
  await expect(page.getByRole("note").getByRole("link", { name: "Move to v2" })).toHaveAttribute("href", "/apis/e2e-parcels?tab=reference&env=sso-qa");
  await scrollUntilShown(page, operations.filter({ hasText: "/v1/parcels/{id}" }));
  await expect(operations.filter({ hasText: "/v2/parcels" })).toHaveCount(0);
  await expect(samples).toContainText("/v1/parcels/{id}");
  await expect(samples).not.toContainText("/v2/parcels");
  await expect(page.getByRole("link", { name: "JSON" })).toHaveAttribute("href", "/apis/e2e-parcels/openapi.json?env=sso-qa&version=v1");

  // The Client Credentials tab keeps the version, and its sample calls it.
  await page.getByRole("navigation", { name: "API sections" }).getByRole("link", { name: "Client Credentials" }).click();
  await expect(page).toHaveURL(/tab=credentials&env=sso-qa&version=v1$/);
  await expect(page.getByRole("main")).toContainText("/gw/sso-qa/e2e-parcels/v1/parcels");
});

test("the catalog lists the API once, with its current version", async ({ page }) => {
  await page.goto("/apis?q=parcels");
  const cards = page.getByRole("main").getByRole("article");
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText("2.0.0");
});

test("a deprecated version's page, its switcher and notice, has no serious accessibility violations and fits 375 px", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/apis/e2e-parcels?version=v1");
  await expect(page.getByRole("note")).toContainText("Version v1 is deprecated");
  const facts = page.getByRole("complementary", { name: "At a glance" });
  await expect(facts).toContainText("/v1/… (deprecated)");
  await expect(facts).toContainText("Deprecated1 November 2026");
  await expect(facts).toContainText("Sunset30 June 2099");
  // What changed from v1 to v2: every v1 path is gone (breaking), every v2 path is new.
  const changes = page.getByRole("region", { name: "Changes between versions" });
  await expect(changes.getByRole("heading", { name: /v1 → v2/ })).toContainText("Breaking");
  await expect(changes).toContainText("Removed (2)");
  await expect(changes).toContainText("Added (2)");
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  expect(await horizontalOverflow(page)).toBe(0);
});

test("an admin sees the versions on the API's page and deprecates an operation there", async ({ signInAs }) => {
  const admin = await signInAs("admin");
  await admin.goto("/admin/apis/e2e-parcels");
  const versions = admin.getByRole("region", { name: "Versions" });
  await expect(versions.getByRole("row", { name: /v1/ })).toContainText("deprecated");
  await expect(versions.getByRole("row", { name: /v2/ })).toContainText("GET /v2/parcels/{id}");
  await versions.getByLabel("Version").selectOption("v2");
  await versions.getByLabel("Operation (optional)").fill("GET /v2/parcels");
  await versions.getByLabel("Sunset (optional)").fill("2099-12-31");
  await versions.getByRole("button", { name: "Deprecate" }).click();
  await expect(versions.getByRole("row", { name: /v2/ })).toContainText("GET /v2/parcels since");
  await expect(versions.getByRole("row", { name: /v2/ })).toContainText("sunset 2099-12-31");
  await admin.setViewportSize({ width: 375, height: 800 });
  expect(await seriousAccessibilityViolations(admin)).toEqual([]);
  expect(await horizontalOverflow(admin)).toBe(0);
});
