import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, TEST_DEVELOPER_PASSWORD, type TestServer } from "../support/server";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

const HOSTILE = [
  "\\\\evil.example",
  "/\\evil.example",
  "%2F%2Fevil.example",
  "/%2F%2Fevil.example",
  "//evil.example",
  "javascript:alert(1)",
  "https://evil.example/settings",
  "http://[::1",
  `/${"a".repeat(20_000)}`,
];

function expectSameOrigin(location: string | null): void {
  expect(location).not.toBeNull();
  expect(new URL(location!, server.url).origin).toBe(server.url);
}

describe("hostile callbackUrl values", () => {
  it.each(HOSTILE.map((value) => [value.slice(0, 40), value]))("%j signs in and lands on our own origin", async (_label, callbackUrl) => {
    const csrf = await fetch(`${server.url}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const cookie = csrf.headers
      .getSetCookie()
      .map((value) => value.split(";")[0])
      .join("; ");
    const callback = await fetch(`${server.url}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, email: "developer@example.com", password: TEST_DEVELOPER_PASSWORD, callbackUrl }),
    });
    expect(callback.status).toBe(302);
    expectSameOrigin(callback.headers.get("location"));
    expect(callback.headers.getSetCookie().some((value) => value.startsWith("next-auth.session-token="))).toBe(true);
  });

  it.each(HOSTILE.map((value) => [value.slice(0, 40), value]))("%j on the sign-in pages never answers 500", async (_label, callbackUrl) => {
    const query = new URLSearchParams({ callbackUrl });
    for (const path of ["/api/auth/signin", "/login"]) {
      const response = await fetch(`${server.url}${path}?${query}`, { redirect: "manual" });
      expect(response.status).toBeLessThan(500);
      if (response.status >= 300 && response.status < 400) expectSameOrigin(response.headers.get("location"));
    }
    const cookieResponse = await fetch(`${server.url}/api/auth/session`, { headers: { cookie: `next-auth.callback-url=${encodeURIComponent(callbackUrl)}` } });
    expect(cookieResponse.status).toBeLessThan(500);
  });
});
