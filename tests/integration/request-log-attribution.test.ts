// /admin/usage charts the request log by client: token requests and refused calls belong to a client too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { startServer, type TestServer } from "../support/server";
import { accessToken, basic, eventually, newCredential, openDb, tokenRequest } from "./gateway-support";

let server: TestServer;
let db: Db;

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

async function loggedClient(requestId: string): Promise<{ clientId: string | null; status: number }> {
  await server.settledOutput();
  let row: { clientId: string | null; status: number } | null = null;
  await eventually(async () => (row = await db.requestLog.findFirst({ where: { requestId }, select: { clientId: true, status: true } })) !== null);
  if (!row) throw new Error(`no request log row for ${requestId}`);
  return row;
}

describe("request log attribution", () => {
  it("logs a token request under the client it authenticated, or the client id it claimed when that failed", async () => {
    const client = await newCredential(db, "sso-qa");
    const granted = await tokenRequest(server, "sso-qa", {
      headers: { authorization: basic(client.clientId, client.clientSecret), "x-request-id": "attr-token-ok" },
      body: "grant_type=client_credentials",
    });
    expect(granted.status).toBe(200);
    expect(await loggedClient("attr-token-ok")).toEqual({ clientId: client.clientId, status: 200 });

    const refused = await tokenRequest(server, "sso-qa", {
      headers: { authorization: basic(client.clientId, "gsk_wrong"), "x-request-id": "attr-token-bad" },
      body: "grant_type=client_credentials",
    });
    expect(refused.status).toBe(401);
    expect(await loggedClient("attr-token-bad")).toEqual({ clientId: client.clientId, status: 401 });

    const junk = await tokenRequest(server, "sso-qa", {
      headers: { authorization: basic("not a client", "x"), "x-request-id": "attr-token-junk" },
      body: "grant_type=client_credentials",
    });
    expect(junk.status).toBe(401);
    expect(await loggedClient("attr-token-junk")).toEqual({ clientId: null, status: 401 });
  });

  it("logs a call refused in another environment under the client of the verified token", async () => {
    const client = await newCredential(db, "sso-qa");
    const token = await accessToken(server, "sso-qa", client);
    const response = await fetch(`${server.url}/gw/platform-dev/notifications/v1/notifications`, {
      headers: { authorization: `Bearer ${token}`, "x-request-id": "attr-wrong-env" },
    });
    expect(response.status).toBe(401);
    expect(await loggedClient("attr-wrong-env")).toEqual({ clientId: client.clientId, status: 401 });
  });
});
