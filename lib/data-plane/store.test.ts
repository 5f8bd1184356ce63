import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../prisma/seed";
import { migratedDatabase } from "../database/migrated-database";
import { CLI_ACTOR } from "../audit/write-audit";
import { createCredential, ensureApplication } from "../credentials/credentials";
import { newId } from "../ids";

let fixture: Awaited<ReturnType<typeof migratedDatabase>>;

beforeAll(async () => {
  fixture = await migratedDatabase();
  await seed(fixture.db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
});

afterAll(async () => {
  await fixture?.close();
});

function addSecret(credentialId: string, fields: { expiresAt?: Date; revokedAt?: Date } = {}) {
  const id = newId("sec");
  return fixture.db.credentialSecret.create({ data: { id, credentialId, hash: `hash-${id}`, hint: "abcd", ...fields } });
}

async function newCredential() {
  const application = await ensureApplication({ db: fixture.db, actor: CLI_ACTOR, ownerId: null, name: `Store ${Math.random()}` });
  return (await createCredential({ db: fixture.db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "sso-qa" })).credential;
}

// Prisma writes what the store reads and reads what it writes, so each check also holds the two to one format of times and flags.
describe("the data plane's store, beside Prisma on one database", () => {
  it("reads the directory Prisma wrote: environments by position, availability and scopes", async () => {
    const { environments, availability, scopes } = await fixture.store.directory();
    const expected = await fixture.db.environment.findMany({ orderBy: { position: "asc" } });
    expect(environments.map((environment) => environment.slug)).toEqual(expected.map((environment) => environment.slug));
    expect(environments[0]).toEqual({
      id: expected[0]!.id,
      slug: expected[0]!.slug,
      name: expected[0]!.name,
      credentialType: expected[0]!.credentialType,
      tokenLifetimeSeconds: expected[0]!.tokenLifetimeSeconds,
      rateLimitBurst: expected[0]!.rateLimitBurst,
      rateLimitPerSecond: expected[0]!.rateLimitPerSecond,
      requireDpop: expected[0]!.requireDpop,
      dpopNonce: expected[0]!.dpopNonce,
    });
    const stored = await fixture.db.apiEnvironment.findMany({ include: { api: { include: { scopes: true } } } });
    expect(availability).toHaveLength(stored.length);
    for (const row of stored) {
      expect(availability).toContainEqual({
        apiId: row.apiId,
        environmentId: row.environmentId,
        upstream: row.upstream,
        slug: row.api.slug,
        kind: row.api.kind,
        isPublic: row.api.isPublic,
        policies: row.api.policies,
        authentication: row.api.authentication,
        mcp: row.api.mcp,
      });
      for (const scope of row.api.scopes) expect(scopes).toContainEqual({ apiId: row.apiId, name: scope.name });
    }
  });

  it("reads the versions with their dates and whether they have a document, the deprecated operations, and the documents asked for", async () => {
    const apiId = newId("api");
    await fixture.db.api.create({
      data: { id: apiId, slug: "versioned", name: "v", summary: "", description: "", version: "1.0.0", tags: [], kind: "PROXY", changelog: [] },
    });
    const document = JSON.stringify({ openapi: "3.1.0", info: { title: "Orders", version: "1" }, paths: { "/v1/orders/{id}": {} } });
    const [deprecatedAt, sunsetAt] = [new Date("2026-11-01T00:00:00.000Z"), new Date("2027-06-30T00:00:00.000Z")];
    const v1 = await fixture.db.apiVersion.create({
      data: { id: newId("apv"), apiId, version: "v1", status: "deprecated", openapiDocument: document, changelog: [], deprecatedAt, sunsetAt },
    });
    const v2 = await fixture.db.apiVersion.create({ data: { id: newId("apv"), apiId, version: "v2", status: "current", changelog: [] } });
    await fixture.db.apiOperationDeprecation.create({ data: { id: newId("apd"), apiVersionId: v1.id, method: "GET", path: "/v1/orders/{id}", deprecatedAt } });

    const { versions, operationDeprecations } = await fixture.store.directory();
    const row = versions.find((version) => version.id === v1.id)!;
    expect(row).toMatchObject({
      apiId,
      version: "v1",
      status: "deprecated",
      deprecatedAt: deprecatedAt.toISOString(),
      sunsetAt: sunsetAt.toISOString(),
      hasDocument: true,
    });
    expect(versions.find((version) => version.id === v2.id)).toMatchObject({ status: "current", deprecatedAt: null, sunsetAt: null, hasDocument: false });
    expect(operationDeprecations).toContainEqual({
      apiVersionId: v1.id,
      method: "GET",
      path: "/v1/orders/{id}",
      deprecatedAt: deprecatedAt.toISOString(),
      sunsetAt: null,
    });
    expect(await fixture.store.openapiDocuments([v1.id, v2.id])).toEqual([{ versionId: v1.id, updatedAt: row.updatedAt, document }]);

    await fixture.db.apiVersion.update({ where: { id: v1.id }, data: { openapiDocument: document.replace("orders", "items") } });
    const changed = (await fixture.store.directory()).versions.find((version) => version.id === v1.id);
    expect(changed?.updatedAt).not.toBe(row.updatedAt);
  });

  it("reads a credential's grants and only its live secrets, with their expiry", async () => {
    const credential = await newCredential();
    const expiresAt = new Date(Date.now() + 86_400_000);
    const live = await addSecret(credential.id, { expiresAt });
    const expired = await addSecret(credential.id, { expiresAt: new Date(Date.now() + 1_000) });
    const revoked = await addSecret(credential.id, { revokedAt: new Date() });
    const [row] = await fixture.store.credentials([credential.clientId, "gci_unknown"], new Date(Date.now() + 2_000));
    const stored = await fixture.db.credential.findUniqueOrThrow({ where: { clientId: credential.clientId }, include: { grants: true, secrets: true } });
    expect(row).toMatchObject({
      id: stored.id,
      clientId: stored.clientId,
      environmentId: stored.environmentId,
      status: "ACTIVE",
      rateLimitBurst: null,
      rateLimitPerSecond: null,
    });
    // A credential without subscriptions: its grants carry no plan.
    expect(row!.grants).toEqual(stored.grants.map(({ apiId, scopes }) => ({ apiId, scopes, subscription: null })));
    const secretIds = row!.secrets.map((secret) => secret.id);
    expect(secretIds).toContain(live.id);
    expect(secretIds).not.toContain(expired.id);
    expect(secretIds).not.toContain(revoked.id);
    expect(row!.secrets.find((secret) => secret.id === live.id)!.expiresAt).toEqual(expiresAt);
  });

  it("keeps a revocation once, answers it until it expires, then deletes it", async () => {
    const now = new Date();
    const [jti, environmentId] = [newId("jti"), (await fixture.store.directory()).environments[0]!.id];
    const expiresAt = new Date(now.getTime() + 60_000);
    await fixture.store.revokeToken({ jti, environmentId, expiresAt }, now);
    await fixture.store.revokeToken({ jti, environmentId, expiresAt: new Date(now.getTime() + 120_000) }, now);
    expect(await fixture.db.revokedToken.findUniqueOrThrow({ where: { jti } })).toMatchObject({ expiresAt, createdAt: now });
    expect(await fixture.store.revokedTokens(now)).toContain(jti);
    const later = new Date(expiresAt.getTime() + 1);
    expect(await fixture.store.revokedTokens(later)).not.toContain(jti);
    await fixture.store.deleteExpiredRevocations(later);
    expect(await fixture.db.revokedToken.findUnique({ where: { jti } })).toBeNull();
  });

  it("marks credentials and secrets used at the time given", async () => {
    const credential = await newCredential();
    const secret = await addSecret(credential.id);
    const now = new Date(Date.now() - 5_000);
    await fixture.store.markUsed({ credentialIds: [credential.id], secretIds: [secret.id], now });
    expect((await fixture.db.credential.findUniqueOrThrow({ where: { id: credential.id } })).lastUsedAt).toEqual(now);
    expect((await fixture.db.credentialSecret.findUniqueOrThrow({ where: { id: secret.id } })).lastUsedAt).toEqual(now);
  });

  it("adds signing keys, and replaces them in one step that retires the others", async () => {
    const environmentId = (await fixture.store.directory()).environments[1]!.id;
    const key = (id: string) => ({ id, environmentId, algorithm: "RS256", publicJwk: `{"kid":"${id}"}`, privateKeyEncrypted: "v1.sealed" });
    const now = new Date();
    const [first, second] = [newId("key"), newId("key")];
    await fixture.store.addSigningKey(key(first), now);
    expect(await fixture.store.signingKey(environmentId)).toEqual({ id: first, privateKeyEncrypted: "v1.sealed" });
    const publishedUntil = new Date(now.getTime() + 3_660_000);
    expect(await fixture.store.replaceSigningKeys(key(second), { now: new Date(now.getTime() + 1), publishedUntil })).toEqual([first]);
    expect((await fixture.store.signingKey(environmentId))?.id).toBe(second);
    expect(await fixture.db.signingKey.findUniqueOrThrow({ where: { id: first } })).toMatchObject({ publishedUntil, retiredAt: new Date(now.getTime() + 1) });
    const published = (await fixture.store.publishedKeys(new Date(publishedUntil.getTime() - 1))).map((row) => row.id);
    expect(published.indexOf(second)).toBeLessThan(published.indexOf(first));
    expect((await fixture.store.publishedKeys(publishedUntil)).map((row) => row.id)).not.toContain(first);
  });
});
