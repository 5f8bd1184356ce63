// The request log and credential use are buffered (docs/decisions/003); a server
// told to stop writes them before it exits, so the last calls are not lost.
import { afterAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../lib/database/test-databases";
import { startServer } from "../support/server";
import { accessToken, newCredential, openDb } from "./gateway-support";

const CALLS = 5;
let database: TestDatabase | undefined;

afterAll(async () => {
  await database?.drop();
});

it("writes the buffered request log and credential use when told to stop", async () => {
  database = await createTestDatabase();
  const server = await startServer({ database });
  const db = openDb(server);
  try {
    const client = await newCredential(db, "platform-dev");
    const token = await accessToken(server, "platform-dev", client);
    for (let i = 0; i < CALLS; i++) {
      const response = await fetch(`${server.url}/gw/platform-dev/notifications/v1/notifications`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
    }
    await server.stop();
    // The token request is logged under its client too.
    expect(await db.requestLog.count({ where: { clientId: client.clientId } })).toBe(CALLS + 1);
    const credential = await db.credential.findUniqueOrThrow({ where: { clientId: client.clientId }, include: { secrets: true } });
    expect(credential.lastUsedAt).not.toBeNull();
    expect(credential.secrets.map((secret) => secret.lastUsedAt)).not.toContain(null);
  } finally {
    await db.$disconnect();
  }
});
