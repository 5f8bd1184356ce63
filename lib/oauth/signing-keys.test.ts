import { describe, expect, it } from "vitest";
import { decryptPrivateKey, encryptPrivateKey } from "./signing-keys";

const SECRET = "signing-key-test-secret-0123456789abcdef";
const PEM = "-----BEGIN PRIVATE KEY-----\nMIIB...\n-----END PRIVATE KEY-----\n";

describe("private key sealing", () => {
  it("round-trips with the same AUTH_SECRET and never stores the PEM in the clear", () => {
    const sealed = encryptPrivateKey(PEM, SECRET);
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain("PRIVATE KEY");
    expect(decryptPrivateKey(sealed, SECRET)).toBe(PEM);
    expect(encryptPrivateKey(PEM, SECRET)).not.toBe(sealed);
  });

  it("refuses another AUTH_SECRET and tampered ciphertext", () => {
    const sealed = encryptPrivateKey(PEM, SECRET);
    expect(() => decryptPrivateKey(sealed, `${SECRET}x`)).toThrow();
    const [version, iv, tag, ciphertext] = sealed.split(".");
    const flipped = `${ciphertext!.slice(0, -2)}${ciphertext!.endsWith("AA") ? "BB" : "AA"}`;
    expect(() => decryptPrivateKey([version, iv, tag, flipped].join("."), SECRET)).toThrow();
  });
});

type Fixture = Awaited<ReturnType<typeof import("../database/migrated-database").migratedDatabase>>;

/** `test` on a new database seeded without demo data, given its `sso-qa` environment's id. */
async function onSeededDatabase(test: (fixture: Fixture, envId: string) => Promise<void>): Promise<void> {
  const { migratedDatabase } = await import("../database/migrated-database");
  const { seed } = await import("../../prisma/seed");
  const fixture = await migratedDatabase();
  try {
    await seed(fixture.db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
    const env = await fixture.db.environment.findUniqueOrThrow({ where: { slug: "sso-qa" } });
    await test(fixture, env.id);
  } finally {
    await fixture.close();
  }
}

describe("key store after AUTH_SECRET changes", () => {
  it("retires a key it can no longer open and signs with a new one, keeping the old one published", async () => {
    const { createKeyStore } = await import("./signing-keys");
    await onSeededDatabase(async (fixture, envId) => {
      const before = await createKeyStore({ store: fixture.store, authSecret: SECRET }).signingKey(envId);
      const after = await createKeyStore({ store: fixture.store, authSecret: `${SECRET}-rotated` }).signingKey(envId);
      expect(after.kid).not.toBe(before.kid);
      const old = await fixture.db.signingKey.findUniqueOrThrow({ where: { id: before.kid } });
      expect(old.retiredAt).not.toBeNull();
      expect(old.publishedUntil!.getTime()).toBeGreaterThan(Date.now() + 3_600_000);
      const jwks = await createKeyStore({ store: fixture.store, authSecret: `${SECRET}-rotated` }).jwks(envId);
      expect(jwks.keys.map((key) => key.kid).sort()).toEqual([before.kid, after.kid].sort());
    });
  });
});

describe("key store after a rotation by another process", () => {
  it("signs with the new key on the first token past its cache age and keeps the retired key in the JWKS", async () => {
    const { createKeyStore, rotateSigningKey } = await import("./signing-keys");
    await onSeededDatabase(async (fixture, envId) => {
      // A cache age of 0 stands for "the 5 s have passed" without waiting for them.
      const running = createKeyStore({ store: fixture.store, authSecret: SECRET, maxAgeMs: 0 });
      const before = await running.signingKey(envId);
      const rotated = await rotateSigningKey({ store: fixture.store, envSlug: "sso-qa", authSecret: SECRET });
      const after = await running.signingKey(envId);
      expect(after.kid).toBe(rotated!.kid);
      expect((await running.jwks(envId)).keys.map((key) => key.kid).sort()).toEqual([before.kid, after.kid].sort());
    });
  });
});

describe("key store on an environment's first tokens", () => {
  it("creates one key when a change arrives while the first is being created", async () => {
    const { createKeyStore } = await import("./signing-keys");
    const { createChangeSignal } = await import("../caching/change-signal");
    await onSeededDatabase(async (fixture, envId) => {
      const changes = createChangeSignal();
      const keys = createKeyStore({ store: fixture.store, authSecret: SECRET, changes });
      const first = keys.signingKey(envId);
      // A change in a later millisecond than the load's start, as the database's watch sends one.
      await new Promise((resolve) => setTimeout(resolve, 5));
      changes.notify();
      const second = keys.signingKey(envId);
      const [a, b] = await Promise.all([first, second]);
      expect(b.kid).toBe(a.kid);
      expect(await fixture.db.signingKey.count({ where: { environmentId: envId } })).toBe(1);
      expect((await keys.signingKey(envId)).kid).toBe(a.kid);
    });
  });
});
