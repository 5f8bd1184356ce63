import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI_ACTOR } from "../audit/write-audit";
import { migratedDatabase } from "../database/migrated-database";
import { inTransaction } from "../db";
import { newId } from "../ids";
import { addVersion, firstVersion, listVersions, replaceVersions } from "./versions";

let fixture: Awaited<ReturnType<typeof migratedDatabase>>;

beforeAll(async () => {
  fixture = await migratedDatabase();
});

afterAll(async () => {
  await fixture?.close();
});

const documentOf = (label: string, path: string) => JSON.stringify({ openapi: "3.1.0", info: { title: "Orders", version: label }, paths: { [path]: {} } });

function createApi(slug: string, openapiDocument: string | null, withVersion: boolean) {
  return fixture.db.api.create({
    data: {
      id: newId("api"),
      slug,
      name: slug,
      summary: "",
      description: "",
      version: "1.0.0",
      tags: [],
      kind: "PROXY",
      changelog: [{ version: "1.0.0", date: "2026-01-05", notes: "First." }],
      openapiDocument,
      ...(withVersion ? { versions: firstVersion({ openapiDocument, changelog: [] }) } : {}),
    },
  });
}

describe("API versions", () => {
  it("the data migration gives an API registered before versions its v1, current, with its document and changelog", async () => {
    const document = documentOf("1.0.0", "/v1/orders");
    const api = await createApi("before-versions", document, false);
    const dialect = fixture.database.url.startsWith("file:") ? "sqlite" : "postgresql";
    const sql = readFileSync(
      join(import.meta.dirname, `../../prisma/migrations/${dialect}/20261126045000_api_versions_of_existing_apis/migration.sql`),
      "utf8",
    );
    await fixture.db.apiVersion.deleteMany({ where: { api: { slug: { not: "before-versions" } } } });
    await fixture.db.$executeRawUnsafe(sql);
    const [v1, ...others] = await listVersions(fixture.db, api.id);
    expect(others).toEqual([]);
    expect(v1).toMatchObject({ version: "v1", status: "current", openapiDocument: document, changelog: api.changelog, deprecatedAt: null, sunsetAt: null });
    expect(v1!.createdAt).toEqual(api.createdAt);
  });

  it("a current version added supersedes the one that was, and the API shows its document and info.version", async () => {
    const api = await createApi("superseded", documentOf("1.0.0", "/v1/orders"), true);
    const now = new Date("2026-12-01T10:00:00.000Z");
    const added = await addVersion({
      db: fixture.db,
      actor: CLI_ACTOR,
      slug: "superseded",
      spec: { version: "v2", status: "current", openapiDocument: documentOf("2.1.0", "/v2/orders") },
      now,
    });
    expect(added).toMatchObject({ version: "v2", status: "current", superseded: ["v1"] });
    const [v1, v2] = await listVersions(fixture.db, api.id);
    expect(v1).toMatchObject({ status: "deprecated", deprecatedAt: now, sunsetAt: null });
    expect(v2).toMatchObject({ status: "current", releasedAt: now });
    const stored = await fixture.db.api.findUniqueOrThrow({ where: { id: api.id } });
    expect([stored.version, stored.openapiDocument]).toEqual(["2.1.0", documentOf("2.1.0", "/v2/orders")]);
    await expect(
      addVersion({ db: fixture.db, actor: CLI_ACTOR, slug: "superseded", spec: { version: "v2", status: "beta", openapiDocument: null } }),
    ).rejects.toMatchObject({ code: "validation-failed", errors: [{ field: "version", message: '"superseded" already has a version v2' }] });
  });

  it("replacing versions keeps a recorded deprecation date the file leaves out, and deletes the versions not listed", async () => {
    const api = await createApi("replaced", documentOf("1.0.0", "/v1/orders"), true);
    const [first, later] = [new Date("2026-12-01T00:00:00.000Z"), new Date("2026-12-20T00:00:00.000Z")];
    const v2 = { version: "v2", status: "current" as const, openapiDocument: documentOf("2.0.0", "/v2/orders"), sunsetAt: null };
    await inTransaction(fixture.db, (tx) =>
      replaceVersions(tx, api.id, [{ version: "v1", status: "deprecated", openapiDocument: null, sunsetAt: null }, v2], first),
    );
    await inTransaction(fixture.db, (tx) =>
      replaceVersions(tx, api.id, [{ version: "v1", status: "deprecated", openapiDocument: null, sunsetAt: null }, v2], later),
    );
    expect((await listVersions(fixture.db, api.id)).map((row) => [row.version, row.status, row.deprecatedAt])).toEqual([
      ["v1", "deprecated", first],
      ["v2", "current", null],
    ]);
    await inTransaction(fixture.db, (tx) => replaceVersions(tx, api.id, [v2], later));
    expect((await listVersions(fixture.db, api.id)).map((row) => row.version)).toEqual(["v2"]);
    expect((await fixture.db.api.findUniqueOrThrow({ where: { id: api.id } })).version).toBe("2.0.0");
  });
});
