// Request bodies with fields no schema declares are refused, naming each field, on the portal's JSON routes and /api/v1:
// none is dropped silently, so a client never believes it set something (a webhook's secret, `enabled`) that was ignored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, TEST_ADMIN_PASSWORD, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";
import { type PortalClient, signedIn } from "./portal-session";

let server: TestServer;
let developer: PortalClient;
let admin: PortalClient;
let teamId: string;

beforeAll(async () => {
  server = await startServer();
  developer = await signedIn(server, "developer@example.com", TEST_DEVELOPER_PASSWORD);
  admin = await signedIn(server, "admin@example.com", TEST_ADMIN_PASSWORD);
  const team = await developer.post("/api/portal/teams", { name: "Hooks" });
  expect(team.status).toBe(201);
  teamId = ((await team.json()) as { id: string }).id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

async function expectUnknown(response: Response, fields: string[]) {
  expect(response.status).toBe(400);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  const body = (await response.json()) as { type: string; errors: { in: string; field: string; message: string }[] };
  expect(body.type).toBe(`${server.url}/problems/validation-failed`);
  for (const field of fields) expect(body.errors).toContainEqual({ in: "body", field, message: "is not a known field" });
}

const webhook = () => ({ teamId, url: "https://hooks.example.com/in", events: ["credential.rotated"], secret: "whsec_mine", enabled: false });

describe("unknown fields", () => {
  it.each([
    ["POST /api/portal/webhooks", () => developer.post("/api/portal/webhooks", webhook()), ["secret", "enabled"]],
    ["PATCH /api/portal/webhooks/{id}", () => developer.send("PATCH", "/api/portal/webhooks/whe_any", { enabled: true, url: "https://x.example" }), ["url"]],
    ["POST /api/portal/teams", () => developer.post("/api/portal/teams", { name: "Ops", personal: true }), ["personal"]],
    [
      "POST /api/portal/teams/{id}/invitations",
      () => developer.post(`/api/portal/teams/${teamId}/invitations`, { email: "x@example.com", expiresAt: "2999-01-01" }),
      ["expiresAt"],
    ],
    [
      "POST /api/portal/credentials",
      () => developer.post("/api/portal/credentials", { application: "A", environment: "platform-dev", owner: "admin@example.com" }),
      ["owner"],
    ],
    [
      "POST /api/portal/credentials (trust)",
      () =>
        developer.post("/api/portal/credentials", {
          application: "A",
          environment: "platform-dev",
          trust: { issuer: "https://issuer.example.com", audience: "a", subject: "s", algorithms: ["none"] },
        }),
      ["trust.algorithms"],
    ],
    [
      "POST /api/portal/tokens",
      () => developer.post("/api/portal/tokens", { name: "CI", scopes: ["teams:read"], expiresInDays: 7, userId: "usr_x" }),
      ["userId"],
    ],
    ["PUT /api/portal/email-preferences", () => developer.put("/api/portal/email-preferences", { receive: [], everything: true }), ["everything"]],
    [
      "POST /api/portal/admin/users",
      () => admin.post("/api/portal/admin/users", { email: "new@example.com", name: "New", password: "a-long-password-1", role: "DEVELOPER", disabled: false }),
      ["disabled"],
    ],
    [
      "POST /api/portal/admin/notifications",
      () => admin.post("/api/portal/admin/notifications", { environment: "platform-dev", title: "Hi", status: "read" }),
      ["status"],
    ],
  ] as const)("%s refuses them as problem+json naming each", async (_, call, fields) => {
    await expectUnknown(await call(), [...fields]);
  });

  it("POST /api/v1/webhooks refuses them", async () => {
    const created = await developer.post("/api/portal/tokens", { name: "CI", scopes: ["webhooks:write"], expiresInDays: 7 });
    const { token } = (await created.json()) as { token: string };
    const response = await fetch(`${server.url}/api/v1/webhooks`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(webhook()),
    });
    await expectUnknown(response, ["secret", "enabled"]);
  });
});
