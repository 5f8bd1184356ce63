import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, TEST_ADMIN_PASSWORD, type TestServer } from "../support/server";
import { type PortalClient, signedIn } from "./portal-session";

let server: TestServer;
let admin: PortalClient;

beforeAll(async () => {
  server = await startServer();
  admin = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
});

afterAll(async () => {
  await server?.stop();
});

describe("pages given a repeated query parameter", () => {
  it.each([
    "/admin/requests?status=pending&status=approved",
    "/admin/audit?action=a&action=b&target=x&target=y",
    "/admin/usage?window=7d&window=24h&api=notifications&api=x&clientId=a&clientId=b",
    "/contact?topic=OTHER&topic=CREDENTIALS",
    "/apis/notifications?env=sso-qa&env=platform-dev&tab=reference&tab=overview",
  ])("%s renders with the first value instead of failing", async (path) => {
    expect((await admin.get(path)).status).toBe(200);
  });
});
