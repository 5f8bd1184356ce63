import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { newId } from "../../lib/ids";
import { hashPassword } from "../../lib/accounts/passwords";
import { isolatedRedisPrefix, TEST_REDIS_URL } from "../support/redis";
import { startServer, type TestServer } from "../support/server";
import { basic, newCredential, openDb, tokenRequest } from "./gateway-support";

// Two instances on one database and one Redis, behind a proxy on this machine that reports each caller's address.
let first: TestServer;
let second: TestServer;
let db: Db;
const redis = isolatedRedisPrefix();

const ATTACKER = "203.0.113.66";
const OWNER = "192.0.2.10";

beforeAll(async () => {
  const env = { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: redis.prefix, TRUSTED_PROXIES: "127.0.0.1, ::1" };
  first = await startServer({ env });
  second = await startServer({ env, database: { url: first.databaseUrl, drop: async () => undefined } });
  db = openDb(first);
});

afterAll(async () => {
  await db?.$disconnect();
  await second?.stop();
  await first?.stop();
  await redis.cleanup();
});

/** Alternates between the two instances, as a load balancer would. */
const instance = (attempt: number) => (attempt % 2 === 0 ? first : second);

async function signInFrom(server: TestServer, address: string, email: string, password: string): Promise<{ error: string | null; session: boolean }> {
  const csrf = await fetch(`${server.url}/api/auth/csrf`, { headers: { "x-forwarded-for": address } });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  const callback = await fetch(`${server.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, "x-forwarded-for": address },
    body: new URLSearchParams({ csrfToken, email, password }),
  });
  const location = callback.headers.get("location") ?? "";
  return {
    error: new URL(location, server.url).searchParams.get("error"),
    session: callback.headers.getSetCookie().some((value) => value.startsWith("next-auth.session-token=")),
  };
}

describe("a guesser slows only itself", () => {
  it("throttles wrong client secrets per address across instances, and the owner's correct secret still gets a token", async () => {
    const victim = await newCredential(db, "sso-qa");
    const from = (address: string, secret: string) => ({
      headers: { authorization: basic(victim.clientId, secret), "x-forwarded-for": address },
      body: "grant_type=client_credentials",
    });
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await tokenRequest(instance(attempt), "sso-qa", from(ATTACKER, "gsk_wrong"))).status).toBe(401);
    }
    const throttled = await tokenRequest(first, "sso-qa", from(ATTACKER, victim.clientSecret));
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await tokenRequest(second, "sso-qa", from(ATTACKER, "gsk_wrong"))).status).toBe(429);
    for (const server of [first, second]) expect((await tokenRequest(server, "sso-qa", from(OWNER, victim.clientSecret))).status).toBe(200);
  });

  it("throttles wrong passwords per address across instances, and the owner's correct password still signs in", async () => {
    const email = "owner@example.com";
    await db.user.create({ data: { id: newId("usr"), email, name: "Owner", role: "DEVELOPER", passwordHash: await hashPassword("the-owners-password") } });
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await signInFrom(instance(attempt), ATTACKER, email, "a-guess")).toEqual({ error: "CredentialsSignin", session: false });
    }
    expect(await signInFrom(second, ATTACKER, email, "the-owners-password")).toEqual({ error: "TooManyAttempts", session: false });
    expect(await signInFrom(first, OWNER, email, "the-owners-password")).toEqual({ error: null, session: true });
    expect(await signInFrom(second, OWNER, email, "the-owners-password")).toEqual({ error: null, session: true });
  });

  it("keeps a Contact Us budget per anonymous sender, shared across instances", async () => {
    const send = (server: TestServer, address: string, attempt: number) =>
      fetch(`${server.url}/api/portal/contact`, {
        method: "POST",
        headers: { origin: server.url, "content-type": "application/json", "x-forwarded-for": address },
        body: JSON.stringify({ topic: "OTHER", name: "Visitor", email: "visitor@example.com", message: `Message ${attempt}` }),
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) statuses.push((await send(instance(attempt), ATTACKER, attempt)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect((await send(first, OWNER, 0)).status).toBe(201);
  });
});
