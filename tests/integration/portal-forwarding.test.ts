import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../lib/db";
import { startServer, type TestServer } from "../support/server";

// Next answers the portal from a worker thread; these check what crosses the hop in server.ts.
let server: TestServer;
let database: Db;

beforeAll(async () => {
  server = await startServer();
  database = createDb(server.databaseUrl);
});

afterAll(async () => {
  await database?.$disconnect();
  await server?.stop();
});

function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const half = Math.floor(bytes.length / 2);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.subarray(0, half));
      controller.enqueue(bytes.subarray(half));
      controller.close();
    },
  });
}

describe("the portal behind server.ts", () => {
  it("streams a chunked request body to the portal, which stores what it carried", async () => {
    const message = { topic: "OTHER", name: "Streamed Visitor", email: "streamed@example.com", message: "Sent in two chunks." };
    const response = await fetch(`${server.url}/api/portal/contact`, {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: chunked(JSON.stringify(message)),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(201);
    const { id } = await response.json();
    expect(await database.accessRequest.findUniqueOrThrow({ where: { id } })).toMatchObject({ name: "Streamed Visitor", message: "Sent in two chunks." });
  });

  it("gives the portal's answer and its problem body one request id", async () => {
    const response = await fetch(`${server.url}/api/portal/contact`, {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ topic: "OTHER" }),
    });
    expect(response.status).toBe(400);
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^req_[0-9a-f]{32}$/);
    expect((await response.json()).requestId).toBe(requestId);
  });

  it("keeps each cookie the portal sets in a Set-Cookie field of its own", async () => {
    const response = await fetch(`${server.url}/api/auth/csrf`);
    expect(response.status).toBe(200);
    const cookies = response.headers.getSetCookie().map((cookie) => cookie.split("=")[0]);
    expect(cookies).toEqual(expect.arrayContaining(["next-auth.csrf-token", "next-auth.callback-url"]));
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    const response = await fetch(`${server.url}/api/health`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.text()).toBe("");
  });
});
