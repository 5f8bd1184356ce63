import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../prisma/seed";
import { migratedDatabase } from "../database/migrated-database";
import { config } from "../config";
import { CLI_ACTOR } from "../audit/write-audit";
import { createCredential, ensureApplication, revokeCredential } from "../credentials/credentials";
import { verifyAccessToken } from "./access-tokens";
import { mintAccessToken } from "./mint-access-token";
import { createKeyStore, type KeyStore } from "./signing-keys";

let fixture: Awaited<ReturnType<typeof migratedDatabase>>;
let clientId: string;
let environmentId: string;
let signingKeys: KeyStore | undefined;
const keys = () => (signingKeys ??= createKeyStore({ store: fixture.store, authSecret: config().authSecret }));

beforeAll(async () => {
  fixture = await migratedDatabase();
  await seed(fixture.db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  const application = await ensureApplication({ db: fixture.db, actor: CLI_ACTOR, ownerId: null, name: "Minted" });
  const { credential } = await createCredential({
    db: fixture.db,
    actor: CLI_ACTOR,
    applicationId: application.id,
    envSlug: "platform-dev",
    withSecret: false,
  });
  clientId = credential.clientId;
  environmentId = credential.environment.id;
});

afterAll(async () => {
  await fixture?.close();
});

describe("mintAccessToken", () => {
  it("mints a 15-minute token with the granted scopes that the gateway's verification accepts", async () => {
    const minted = await mintAccessToken({ db: fixture.db, keys: keys(), envSlug: "platform-dev", clientId });
    expect(minted).toMatchObject({ tokenType: "Bearer", expiresIn: 900, scope: "notifications:read notifications:write" });
    const verified = await verifyAccessToken({
      keys: createKeyStore({ store: fixture.store, authSecret: config().authSecret }),
      publicUrl: config().publicUrl,
      env: { id: environmentId, slug: "platform-dev" },
      token: minted.accessToken,
      environmentSlugOf: async () => "platform-dev",
    });
    expect(verified).toMatchObject({ clientId, envSlug: "platform-dev", jti: minted.jti });
    expect(verified.expiresAt - verified.issuedAt).toBe(900);
  });

  it("narrows scopes and refuses ungranted scopes, other environments, long lifetimes and revoked credentials", async () => {
    expect((await mintAccessToken({ db: fixture.db, keys: keys(), envSlug: "platform-dev", clientId, scopes: ["notifications:read"] })).scope).toBe(
      "notifications:read",
    );
    await expect(mintAccessToken({ db: fixture.db, keys: keys(), envSlug: "platform-dev", clientId, scopes: ["admin"] })).rejects.toMatchObject({
      status: 400,
    });
    await expect(mintAccessToken({ db: fixture.db, keys: keys(), envSlug: "sso-qa", clientId })).rejects.toMatchObject({ status: 404 });
    await expect(mintAccessToken({ db: fixture.db, keys: keys(), envSlug: "platform-dev", clientId, lifetimeSeconds: 901 })).rejects.toMatchObject({
      status: 400,
    });
    await revokeCredential({ db: fixture.db, actor: CLI_ACTOR, clientId });
    await expect(mintAccessToken({ db: fixture.db, keys: keys(), envSlug: "platform-dev", clientId })).rejects.toMatchObject({ status: 409 });
  });
});
