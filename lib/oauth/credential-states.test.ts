import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../prisma/seed";
import { migratedDatabase } from "../database/migrated-database";
import { CLI_ACTOR } from "../audit/write-audit";
import { createCredential, ensureApplication } from "../credentials/credentials";
import type { DataPlaneStore } from "../data-plane/store";
import { createChangeSignal } from "../caching/change-signal";
import { createCredentialStates } from "./credential-states";

let fixture: Awaited<ReturnType<typeof migratedDatabase>>;

beforeAll(async () => {
  fixture = await migratedDatabase();
  await seed(fixture.db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
});

afterAll(async () => {
  await fixture?.close();
});

async function newClient(): Promise<string> {
  const application = await ensureApplication({ db: fixture.db, actor: CLI_ACTOR, ownerId: null, name: `States ${Math.random()}` });
  const { credential } = await createCredential({ db: fixture.db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "sso-qa" });
  return credential.clientId;
}

async function revoke(clientId: string): Promise<void> {
  await fixture.db.credential.update({ where: { clientId }, data: { status: "REVOKED" } });
}

/** The fixture's store, counting the credential queries made through it. */
function countingStore(): { store: Pick<DataPlaneStore, "credentials">; queries: () => number } {
  let queries = 0;
  return {
    store: {
      credentials(...args) {
        queries += 1;
        return fixture.store.credentials(...args);
      },
    },
    queries: () => queries,
  };
}

describe("credential states", () => {
  it("answers from what it keeps while a reload runs beside the call, then from the reload", async () => {
    const clientId = await newClient();
    const states = createCredentialStates({ store: fixture.store, maxAgeMs: 60_000, refreshAfterMs: 0 });
    expect((await states.get(clientId))?.active).toBe(true);
    await revoke(clientId);
    expect((await states.get(clientId))?.active).toBe(true);
    await expect.poll(async () => (await states.get(clientId))?.active).toBe(false);
  });

  it("reloads the states that fall due together with one query", async () => {
    const clientIds = [await newClient(), await newClient(), await newClient()];
    const { store, queries } = countingStore();
    const states = createCredentialStates({ store, maxAgeMs: 60_000, refreshAfterMs: 0, batchMs: 50 });
    for (const clientId of clientIds) expect((await states.get(clientId))?.active).toBe(true);
    expect(queries()).toBe(3);
    for (const clientId of clientIds) await revoke(clientId);
    for (const clientId of clientIds) expect((await states.get(clientId))?.active).toBe(true);
    await expect.poll(async () => Promise.all(clientIds.map(async (clientId) => (await states.get(clientId))?.active))).toEqual([false, false, false]);
    expect(queries()).toBe(4);
  });

  it("keeps its state when a reload finds the same row, and replaces it when the row changed", async () => {
    const clientId = await newClient();
    const { store, queries } = countingStore();
    const states = createCredentialStates({ store, maxAgeMs: 60_000, refreshAfterMs: 0, batchMs: 10 });
    const first = await states.get(clientId);
    await states.get(clientId);
    await expect.poll(queries).toBe(2);
    expect(await states.get(clientId)).toBe(first);
    await fixture.db.credential.update({ where: { clientId }, data: { rateLimitBurst: 7, rateLimitPerSecond: 3 } });
    await expect.poll(async () => (await states.get(clientId))?.rateLimit).toEqual({ burst: 7, perSecond: 3 });
    expect(await states.get(clientId)).not.toBe(first);
  });

  it("waits for the database once what it keeps is older than maxAgeMs", async () => {
    const clientId = await newClient();
    const states = createCredentialStates({ store: fixture.store, maxAgeMs: 0 });
    expect((await states.get(clientId))?.active).toBe(true);
    await revoke(clientId);
    expect((await states.get(clientId))?.active).toBe(false);
  });

  it("on a change, reads every kept state again in one query, and answers none from before it", async () => {
    const clientIds = [await newClient(), await newClient(), await newClient()];
    const { store, queries } = countingStore();
    const changes = createChangeSignal();
    const states = createCredentialStates({ store, maxAgeMs: 60_000, refreshAfterMs: 60_000, changes });
    const before = await Promise.all(clientIds.map((clientId) => states.get(clientId)));
    expect(queries()).toBe(3);
    await revoke(clientIds[0]!);
    changes.notify();
    expect(queries()).toBe(4);
    const after = await Promise.all(clientIds.map((clientId) => states.get(clientId)));
    expect(after.map((state) => state?.active)).toEqual([false, true, true]);
    expect(after[1]).toBe(before[1]);
    expect(queries()).toBe(4);
  });
});
