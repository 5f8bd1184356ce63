import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { newId } from "../../lib/ids";
import { SYSTEM_ACTOR } from "../../lib/audit/write-audit";
import { createApiKey, rollApiKey } from "../../lib/credentials/api-keys";
import { sendApiKeyExpiryNotices } from "../../lib/credentials/api-key-expiry";
import { createCredential, ensureApplication, rotateSecret } from "../../lib/credentials/credentials";
import { sendSecretExpiryNotices } from "../../lib/credentials/secret-expiry";
import { migratedDatabase } from "../../lib/database/migrated-database";

const DAY = 24 * 60 * 60 * 1000;
let database: Awaited<ReturnType<typeof migratedDatabase>>;
let db: Db;

beforeAll(async () => {
  database = await migratedDatabase();
  db = database.db;
  await db.environment.create({ data: { id: newId("env"), slug: "qa", name: "QA", credentialType: "GLOBAL_SSO", selfService: true } });
});

afterAll(async () => {
  await database?.close();
});

async function credentialExpiringIn(name: string, ms: number) {
  const application = await ensureApplication({ db, actor: SYSTEM_ACTOR, ownerId: null, name });
  const { credential } = await createCredential({
    db,
    actor: SYSTEM_ACTOR,
    applicationId: application.id,
    envSlug: "qa",
    secretExpiresAt: new Date(Date.now() + ms),
  });
  return credential.clientId;
}

describe("secret expiry notices", () => {
  it("reach the owning client a week and a day before expiry, once each", async () => {
    const clientId = await credentialExpiringIn("Expiring", 5 * DAY);
    const now = new Date();
    expect(await sendSecretExpiryNotices({ db, now })).toEqual({ week: 1, day: 0 });
    expect(await sendSecretExpiryNotices({ db, now })).toEqual({ week: 0, day: 0 });
    const later = new Date(now.getTime() + 4.5 * DAY);
    expect(await sendSecretExpiryNotices({ db, now: later })).toEqual({ week: 0, day: 1 });
    expect(await sendSecretExpiryNotices({ db, now: later })).toEqual({ week: 0, day: 0 });
    const notices = await db.notification.findMany({ where: { clientId }, orderBy: { createdAt: "asc" } });
    expect(notices.map((notice) => [notice.category, notice.severity])).toEqual([
      ["security", "warning"],
      ["security", "critical"],
    ]);
    expect(notices[0]!.title).toMatch(/expires within a week$/);
    const audit = await db.auditEvent.findMany({ where: { targetId: clientId, action: { startsWith: "credential.secret.expiry-notice" } } });
    expect(audit.map((event) => event.action).sort()).toEqual(["credential.secret.expiry-notice.day", "credential.secret.expiry-notice.week"]);
  });

  it("skip far expiries, secrets rotated out on purpose and revoked credentials", async () => {
    const far = await credentialExpiringIn("Far", 30 * DAY);
    const rotated = await credentialExpiringIn("Rotated", 30 * DAY);
    await rotateSecret({ db, actor: SYSTEM_ACTOR, clientId: rotated, graceSeconds: 3600 });
    const revoked = await credentialExpiringIn("Revoked", 3 * DAY);
    await db.credential.update({ where: { clientId: revoked }, data: { status: "REVOKED" } });
    await sendSecretExpiryNotices({ db });
    expect(await db.notification.count({ where: { clientId: { in: [far, rotated, revoked] } } })).toBe(0);
  });
});

describe("API key expiry notices", () => {
  async function keyExpiringIn(name: string, ms: number) {
    const clientId = await credentialExpiringIn(name, 365 * DAY);
    const input = { application: name, environment: "qa", expiresAt: new Date(Date.now() + ms).toISOString() };
    const { apiKey } = await createApiKey({ db, actor: SYSTEM_ACTOR, viewer: "operator", input });
    return { clientId, id: apiKey.id };
  }

  it("reach the key's client a week and a day before expiry, once each, with one api_key.expiring event", async () => {
    const { clientId, id } = await keyExpiringIn("Key Expiring", 5 * DAY);
    const now = new Date();
    expect(await sendApiKeyExpiryNotices({ db, now })).toEqual({ week: 1, day: 0 });
    expect(await sendApiKeyExpiryNotices({ db, now })).toEqual({ week: 0, day: 0 });
    const later = new Date(now.getTime() + 4.5 * DAY);
    expect(await sendApiKeyExpiryNotices({ db, now: later })).toEqual({ week: 0, day: 1 });
    expect(await sendApiKeyExpiryNotices({ db, now: later })).toEqual({ week: 0, day: 0 });
    const notices = await db.notification.findMany({ where: { clientId }, orderBy: { createdAt: "asc" } });
    expect(notices.map((notice) => [notice.category, notice.severity])).toEqual([
      ["security", "warning"],
      ["security", "critical"],
    ]);
    expect(notices[0]!.title).toMatch(/^API key ending in .{4} expires within a week$/);
    const audit = await db.auditEvent.findMany({ where: { targetId: id, action: { startsWith: "api-key.expiry-notice" } } });
    expect(audit.map((event) => event.action).sort()).toEqual(["api-key.expiry-notice.day", "api-key.expiry-notice.week"]);
    const events = await db.outboxEvent.findMany({ where: { type: "api_key.expiring" } });
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({ clientId, keyId: id });
  });

  it("skip far expiries, keys rolled out on purpose, revoked keys and revoked credentials", async () => {
    const far = await keyExpiringIn("Key Far", 30 * DAY);
    const rolled = await keyExpiringIn("Key Rolled", 30 * DAY);
    await rollApiKey({ db, actor: SYSTEM_ACTOR, viewer: "operator", id: rolled.id, input: { overlap: "3d" } });
    const revokedKey = await keyExpiringIn("Key Revoked", 3 * DAY);
    await db.apiKey.update({ where: { id: revokedKey.id }, data: { revokedAt: new Date() } });
    const revokedCredential = await keyExpiringIn("Key Credential Revoked", 3 * DAY);
    await db.credential.update({ where: { clientId: revokedCredential.clientId }, data: { status: "REVOKED" } });
    expect(await sendApiKeyExpiryNotices({ db })).toEqual({ week: 0, day: 0 });
    const clientIds = [far, rolled, revokedKey, revokedCredential].map((key) => key.clientId);
    expect(await db.notification.count({ where: { clientId: { in: clientIds } } })).toBe(0);
  });
});
