import type { Spectral } from "@stoplight/spectral-core";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiDocument } from "../../lib/catalog/api-document";
import { listCatalogApis } from "../../lib/catalog/catalog-api";
import { migratedDatabase } from "../../lib/database/migrated-database";
import { managementApiDocument } from "../../lib/management-api/openapi";
import { seed } from "../../prisma/seed";
import { lintDocument, repositorySpectral } from "../support/spectral";

const PUBLIC_URL = "https://portal.example.com";
const ERROR = 0;

let fixture: Awaited<ReturnType<typeof migratedDatabase>>;
let spectral: Spectral;

beforeAll(async () => {
  fixture = await migratedDatabase();
  await seed(fixture.db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  spectral = await repositorySpectral();
});

afterAll(async () => {
  await fixture?.close();
});

describe("published OpenAPI documents against Spectral's spectral:oas and OWASP rulesets (.spectral.yaml)", () => {
  it("every document the catalog serves, per API and environment, has no errors", async () => {
    const apis = await listCatalogApis(fixture.db);
    const views = apis.flatMap((api) => api.environments.map((env) => ({ api, env })));
    expect(views).toHaveLength(8);
    const errors: string[] = [];
    for (const { api, env } of views) {
      // Named by kind, so that .spectral.yaml can scope an exception to token APIs.
      const source = path.resolve("published", api.kind.toLowerCase(), `${api.slug}-${env.slug}.openapi.json`);
      const diagnostics = await lintDocument(spectral, apiDocument(api, env, PUBLIC_URL), source);
      for (const d of diagnostics.filter((diagnostic) => diagnostic.severity === ERROR)) {
        errors.push(`${path.basename(source)} ${d.code} ${d.path.join(".")}: ${d.message}`);
      }
    }
    expect(errors).toEqual([]);
  });

  it("the management API's document (/api/v1/openapi.json) has no errors", async () => {
    const source = path.resolve("published", "management", "management-api.openapi.json");
    const diagnostics = await lintDocument(spectral, managementApiDocument({ publicUrl: PUBLIC_URL }), source);
    expect(diagnostics.filter((d) => d.severity === ERROR).map((d) => `${d.code} ${d.path.join(".")}: ${d.message}`)).toEqual([]);
  });

  it("loads the OWASP rules, so a clean result means something", async () => {
    const unbounded = {
      openapi: "3.1.0",
      info: { title: "Unbounded", version: "1.0.0" },
      paths: {},
      components: { schemas: { Name: { type: "string" } } },
    };
    const diagnostics = await lintDocument(spectral, unbounded, path.resolve("published", "proxy", "unbounded.openapi.json"));
    expect(diagnostics.filter((d) => d.severity === ERROR).map((d) => d.code)).toContain("owasp:api4:2023-string-limit");
  });

  it("loads Stoplight's OpenAPI rules, which refuse an example its own schema does not allow", async () => {
    const contradicted = {
      openapi: "3.1.0",
      info: { title: "Contradicted", version: "1.0.0" },
      paths: {},
      components: { schemas: { Kind: { type: "string", const: "fixed", maxLength: 10, example: "" } } },
    };
    const diagnostics = await lintDocument(spectral, contradicted, path.resolve("published", "proxy", "contradicted.openapi.json"));
    expect(diagnostics.filter((d) => d.severity === ERROR).map((d) => d.code)).toContain("oas3-valid-schema-example");
  });
});
