import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedDatabase } from "../lib/database/migrated-database";
import { seed } from "./seed";

let fixture: Awaited<ReturnType<typeof migratedDatabase>>;

beforeAll(async () => {
  fixture = await migratedDatabase();
});

afterAll(async () => {
  await fixture?.close();
});

async function snapshot() {
  const { db } = fixture;
  return {
    environments: await db.environment.findMany({ orderBy: { slug: "asc" } }),
    apis: await db.api.findMany({ orderBy: { slug: "asc" }, include: { environments: true, scopes: true } }),
    users: await db.user.findMany({ orderBy: { email: "asc" } }),
    applications: await db.application.findMany(),
  };
}

describe("demo seed", () => {
  it("creates the environments, the built-in APIs, the demo accounts and application", async () => {
    const report = await seed(fixture.db, { seedDemo: true, seedAdminPassword: "admin-pass-1", seedDeveloperPassword: undefined });
    const data = await snapshot();
    expect(data.environments.map((env) => [env.slug, env.name, env.credentialType, env.selfService])).toEqual([
      ["platform-dev", "Platform Development", "PLATFORM", true],
      ["platform-prod", "Platform Production", "PLATFORM", false],
      ["sso-prod", "Global SSO Production", "GLOBAL_SSO", false],
      ["sso-qa", "Global SSO QA", "GLOBAL_SSO", true],
    ]);
    const slugOf = new Map(data.environments.map((env) => [env.id, env.slug]));
    expect(data.apis.map((api) => [api.slug, api.name, api.isPublic, api.environments.map((row) => slugOf.get(row.environmentId)).sort()])).toEqual([
      ["global-sso-token", "Global SSO Access Token", true, ["sso-prod", "sso-qa"]],
      ["notifications", "Notifications API", false, ["platform-dev", "platform-prod", "sso-prod", "sso-qa"]],
      ["platform-token", "Platform Access Token", true, ["platform-dev", "platform-prod"]],
    ]);
    expect(
      data.apis
        .find((api) => api.slug === "notifications")
        ?.scopes.map((scope) => scope.name)
        .sort(),
    ).toEqual(["notifications:read", "notifications:write"]);
    expect(data.users.map((user) => [user.email, user.role])).toEqual([
      ["admin@example.com", "ADMIN"],
      ["developer@example.com", "DEVELOPER"],
    ]);
    expect(data.users.every((user) => user.passwordHash?.startsWith("scrypt$"))).toBe(true);
    expect(data.applications.map((app) => app.name)).toEqual(["Demo Application"]);
    const printed = report.join("\n");
    expect(printed).toContain("admin@example.com  password: admin-pass-1");
    expect(printed).toMatch(/developer@example.com {2}password: [A-Za-z0-9_-]{20}/);
  });

  it("changes nothing when it runs again", async () => {
    const before = await snapshot();
    const report = await seed(fixture.db, { seedDemo: true, seedAdminPassword: "another-password", seedDeveloperPassword: undefined });
    expect(report).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});
