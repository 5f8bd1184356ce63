import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db";
import { hashClientSecret, secretHashesEqual } from "../oauth/client-secrets";
import { migratedDatabase } from "../database/migrated-database";
import { seed } from "../../prisma/seed";
import { CLI_ACTOR } from "../audit/write-audit";
import { createCredential, ensureApplication, issueSecret, listUserCredentials, revokeCredential, rotateSecret } from "./credentials";

const AUTH_SECRET = "credentials-test-secret-0123456789abcdef";
let database: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Db;

beforeAll(async () => {
  database = await migratedDatabase();
  db = database.db;
  await seed(db, { seedDemo: true, seedAdminPassword: "admin-password", seedDeveloperPassword: "developer-password" });
});

afterAll(async () => {
  await database?.close();
});

async function newApplication(name: string, ownerId: string | null = null) {
  return ensureApplication({ db, actor: CLI_ACTOR, ownerId, name });
}

describe("credential services", () => {
  it("creates a credential with every scope of the environment and a secret stored only as an HMAC", async () => {
    const application = await newApplication("Everything App");
    const { credential, secret } = await createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "sso-qa", authSecret: AUTH_SECRET });
    expect(credential.clientId).toMatch(/^gci_[0-9a-f]{24}$/);
    expect(credential.grants).toEqual([expect.objectContaining({ apiSlug: "notifications", scopes: ["notifications:read", "notifications:write"] })]);
    expect(secret?.clientSecret).toMatch(/^gsk_[A-Za-z0-9_-]{43}$/);
    expect(secret?.hint).toBe(secret?.clientSecret.slice(-4));
    const stored = await db.credentialSecret.findMany({ where: { credentialId: credential.id } });
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(secret!.clientSecret);
    expect(secretHashesEqual(hashClientSecret(secret!.clientSecret, AUTH_SECRET), stored[0]!.hash)).toBe(true);
    expect(secretHashesEqual(hashClientSecret(`${secret!.clientSecret.slice(0, -1)}x`, AUTH_SECRET), stored[0]!.hash)).toBe(false);
    const audit = await db.auditEvent.findMany({ where: { targetId: credential.clientId }, orderBy: { at: "asc" } });
    expect(audit.map((event) => [event.action, event.actorLabel])).toEqual([
      ["credential.create", "cli"],
      ["credential.secret.issue", "cli"],
    ]);
    expect(JSON.stringify(audit)).not.toContain(secret!.clientSecret);
  });

  it("narrows grants to the scopes given and rejects unknown ones", async () => {
    const application = await newApplication("Reader App");
    const { credential } = await createCredential({
      db,
      actor: CLI_ACTOR,
      applicationId: application.id,
      envSlug: "platform-dev",
      scopes: ["notifications:read"],
    });
    expect(credential.grants.map((grant) => grant.scopes)).toEqual([["notifications:read"]]);
    await expect(createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "sso-qa", scopes: ["nope:write"] })).rejects.toMatchObject({
      status: 400,
      code: "validation-failed",
    });
  });

  it("keeps one active credential per application and environment", async () => {
    const application = await newApplication("Single App");
    await createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "sso-prod" });
    await expect(createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "sso-prod" })).rejects.toMatchObject({
      status: 409,
      code: "credential-exists",
    });
  });

  it("rotates with a grace period, keeping at most two live secrets", async () => {
    const application = await newApplication("Rotating App");
    const { credential, secret } = await createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "sso-qa" });
    const second = await rotateSecret({ db, actor: CLI_ACTOR, clientId: credential.clientId, graceSeconds: 3600 });
    expect(second.previousSecretValidUntil!.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    const third = await rotateSecret({ db, actor: CLI_ACTOR, clientId: credential.clientId, graceSeconds: 60 });
    const live = await db.credentialSecret.findMany({ where: { credentialId: credential.id, revokedAt: null } });
    expect(live.map((row) => row.id).sort()).toEqual([second.secretId, third.secretId].sort());
    expect(live.map((row) => row.id)).not.toContain(secret!.secretId);
    await expect(rotateSecret({ db, actor: CLI_ACTOR, clientId: credential.clientId, graceSeconds: 86_401 })).rejects.toMatchObject({ status: 400 });
    await expect(issueSecret({ db, actor: CLI_ACTOR, clientId: credential.clientId })).rejects.toMatchObject({ code: "secret-exists" });
  });

  it("provisions without a secret, then issues the first one to the owner", async () => {
    const owner = await db.user.findUniqueOrThrow({ where: { email: "developer@example.com" } });
    const application = await newApplication("Approved App", owner.id);
    const { credential, secret } = await createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "platform-prod", withSecret: false });
    expect(secret).toBeNull();
    expect(credential.secrets).toEqual([]);
    const issued = await issueSecret({ db, actor: { userId: owner.id, label: owner.email }, clientId: credential.clientId });
    expect(issued.clientSecret).toMatch(/^gsk_/);
    expect((await listUserCredentials({ db, userId: owner.id })).map((row) => row.clientId)).toContain(credential.clientId);
    expect(await listUserCredentials({ db, userId: "usr_someone_else" })).toEqual([]);
  });

  it("revokes a credential and every secret at once", async () => {
    const application = await newApplication("Revoked App");
    const { credential } = await createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "sso-qa" });
    const revoked = await revokeCredential({ db, actor: CLI_ACTOR, clientId: credential.clientId });
    expect(revoked.status).toBe("REVOKED");
    expect(revoked.secrets).toEqual([]);
    expect(await db.credentialSecret.count({ where: { credentialId: credential.id, revokedAt: null } })).toBe(0);
    await expect(rotateSecret({ db, actor: CLI_ACTOR, clientId: credential.clientId, graceSeconds: 0 })).rejects.toMatchObject({ code: "credential-revoked" });
  });
});
