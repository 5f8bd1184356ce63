import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../prisma/seed";
import type { PortalUser } from "../actors/portal-user";
import { CLI_ACTOR } from "../audit/write-audit";
import { migratedDatabase } from "../database/migrated-database";
import type { Db } from "../db";
import { newId } from "../ids";
import { createNewCredential } from "./new-credential";

// The portal, /api/v1 and the CLI create a credential through this one service and its one schema; the developer and the operator differ only in what they may do.

let database: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Db;
let developer: PortalUser;

beforeAll(async () => {
  database = await migratedDatabase();
  db = database.db;
  await seed(db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  const id = newId("usr");
  developer = { id, email: `dev-${id.slice(-6).toLowerCase()}@example.com`, name: "Dev", role: "DEVELOPER" };
  await db.user.create({ data: { id, email: developer.email, name: developer.name } });
});

afterAll(async () => {
  await database?.close();
});

const operator = { operator: CLI_ACTOR, ownerId: null };
const KEY = { kty: "EC", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU", y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0", kid: "k1" };

describe("creating a credential", () => {
  it.each([
    ["a developer", () => ({ user: developer })],
    ["the operator", () => operator],
  ])("refuses, for %s alike, an unknown field naming it, and keys given twice", async (_who, by) => {
    await expect(createNewCredential({ db, input: { application: "A", environment: "platform-dev", owner: "x" }, by: by() })).rejects.toMatchObject({
      code: "validation-failed",
      errors: [expect.objectContaining({ field: "owner" })],
    });
    const twice = { application: "A", environment: "platform-dev", jwks: { keys: [KEY] }, jwksUri: "https://keys.example.com/jwks.json" };
    await expect(createNewCredential({ db, input: twice, by: by() })).rejects.toMatchObject({
      errors: [{ in: "body", field: "jwksUri", message: "Give your public keys inline or by URL, not both" }],
    });
    await expect(createNewCredential({ db, input: { application: "A", environment: "platform-dev", jwks: "not a key set" }, by: by() })).rejects.toMatchObject({
      errors: [{ in: "body", field: "jwks", message: 'must be a JSON Web Key Set, {"keys": [...]}' }],
    });
  });

  it("lets a developer use self-service environments only, and the operator any", async () => {
    await expect(createNewCredential({ db, input: { application: "Prod", environment: "sso-prod" }, by: { user: developer } })).rejects.toMatchObject({
      code: "approval-required",
    });
    const { credential } = await createNewCredential({ db, input: { application: "Prod", environment: "sso-prod" }, by: operator });
    expect(credential.environment.slug).toBe("sso-prod");
  });

  it("checks a developer's jwksUri under the outbound policy when given; the operator's when it is fetched", async () => {
    const input = { application: "Keys by URL", environment: "platform-dev", jwksUri: "http://127.0.0.1:9/jwks.json" };
    await expect(createNewCredential({ db, input, by: { user: developer } })).rejects.toMatchObject({
      errors: [expect.objectContaining({ field: "jwksUri" })],
    });
    const { credential, secret } = await createNewCredential({ db, input, by: operator });
    expect(credential.authentication).toMatchObject({ method: "private_key_jwt", jwksUri: "http://127.0.0.1:9/jwks.json" });
    expect(secret).toBeNull();
  });

  it("gives the operator's scopes and exact expiry, and a developer's expiry in days", async () => {
    const end = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000);
    const operated = await createNewCredential({
      db,
      input: { application: "Narrow", environment: "sso-qa" },
      by: { ...operator, scopes: ["notifications:read"], secretExpiresAt: end },
    });
    expect(operated.credential.grants.flatMap((grant) => grant.scopes)).toEqual(["notifications:read"]);
    expect(operated.secret?.expiresAt?.toISOString()).toBe(end.toISOString());
    const developed = await createNewCredential({ db, input: { application: "Mine", environment: "sso-qa", expiresInDays: 30 }, by: { user: developer } });
    expect(developed.secret?.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 60 * 60 * 1000);
    expect(developed.credential.application.ownerId).toBe(developer.id);
  });
});
