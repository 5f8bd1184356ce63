import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../lib/db";
import { startServer, type TestServer } from "../support/server";

const CLIENT_ID = "gatehouse-portal";
const CLIENT_SECRET = "global-sso-client-secret-for-tests";

type Identity = { sub: string; email: string; name: string; emailVerified?: boolean };

/**
 * A minimal OpenID Provider: discovery, an authorize endpoint that signs the
 * next identity in at once, a token endpoint issuing RS256 ID tokens, and JWKS.
 */
async function startIssuer(identity: () => Identity) {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const codes = new Map<string, Identity>();
  let issuer = "";
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (url.pathname === "/.well-known/openid-configuration") {
      return send(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        userinfo_endpoint: `${issuer}/userinfo`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["RS256"],
      });
    }
    if (url.pathname === "/jwks") return send(200, { keys: [jwk] });
    if (url.pathname === "/authorize") {
      const code = `code-${codes.size}`;
      codes.set(code, identity());
      const back = new URL(url.searchParams.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", url.searchParams.get("state") ?? "");
      return res.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === "/token") {
      let body = "";
      for await (const chunk of req) body += chunk;
      const who = codes.get(new URLSearchParams(body).get("code") ?? "");
      if (!who) return send(400, { error: "invalid_grant" });
      const idToken = await new SignJWT({ email: who.email, name: who.name, ...(who.emailVerified === undefined ? {} : { email_verified: who.emailVerified }) })
        .setProtectedHeader({ alg: "RS256", kid: "test-key" })
        .setIssuer(issuer)
        .setAudience(CLIENT_ID)
        .setSubject(who.sub)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(privateKey);
      return send(200, { access_token: "opaque", token_type: "Bearer", expires_in: 300, id_token: idToken });
    }
    send(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let issuer: Awaited<ReturnType<typeof startIssuer>>;
let server: TestServer;
let database: Db;
let nextIdentity: Identity;

beforeAll(async () => {
  issuer = await startIssuer(() => nextIdentity);
  server = await startServer({ env: { OIDC_ISSUER: issuer.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET } });
  database = createDb(server.databaseUrl);
});

afterAll(async () => {
  await database?.$disconnect();
  await server?.stop();
  await issuer?.close();
});

function cookies(response: Response): string[] {
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);
}

/** Walks the browser's part of the authorization code flow and returns the session user. */
async function signInThroughGlobalSso(): Promise<{ email?: string; role?: string } | undefined> {
  const csrf = await fetch(`${server.url}/api/auth/csrf`);
  const jar = cookies(csrf);
  const { csrfToken } = await csrf.json();
  const start = await fetch(`${server.url}/api/auth/signin/global-sso`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({ csrfToken, callbackUrl: "/settings", json: "true" }),
  });
  jar.push(...cookies(start));
  const authorizeUrl = start.headers.get("location") ?? (await start.json()).url;
  expect(authorizeUrl).toContain(`${issuer.issuer}/authorize`);
  expect(authorizeUrl).toContain("code_challenge=");
  const authorize = await fetch(authorizeUrl, { redirect: "manual" });
  const callback = await fetch(authorize.headers.get("location")!, { redirect: "manual", headers: { cookie: jar.join("; ") } });
  const session = cookies(callback).find((cookie) => cookie.startsWith("next-auth.session-token="));
  if (!session) return undefined;
  const current = await fetch(`${server.url}/api/auth/session`, { headers: { cookie: session } });
  return (await current.json()).user;
}

describe("Global SSO", () => {
  it("is offered on the sign-in page when configured", async () => {
    const providers = await (await fetch(`${server.url}/api/auth/providers`)).json();
    expect(providers["global-sso"]).toMatchObject({ name: "Global SSO", type: "oauth" });
    expect(await (await fetch(`${server.url}/login`)).text()).toContain("Sign in with Global SSO");
  });

  it("links an existing account by email and keeps its role", async () => {
    nextIdentity = { sub: "sso-admin", email: "admin@example.com", name: "Ada", emailVerified: true };
    expect(await signInThroughGlobalSso()).toMatchObject({ email: "admin@example.com", role: "ADMIN" });
    expect((await database.user.findUniqueOrThrow({ where: { email: "admin@example.com" } })).ssoSubject).toBe("sso-admin");
  });

  it("does not link an existing account when the provider does not say the email is verified", async () => {
    for (const [sub, emailVerified] of [
      ["sso-unverified", false],
      ["sso-unstated", undefined],
    ] as const) {
      nextIdentity = { sub, email: "developer@example.com", name: "Impostor", emailVerified };
      expect(await signInThroughGlobalSso()).toBeUndefined();
    }
    expect((await database.user.findUniqueOrThrow({ where: { email: "developer@example.com" } })).ssoSubject).toBeNull();
  });

  it("creates a developer on first sign-in and refuses disabled accounts", async () => {
    nextIdentity = { sub: "sso-new", email: "New.Person@example.com", name: "New Person", emailVerified: true };
    expect(await signInThroughGlobalSso()).toMatchObject({ email: "new.person@example.com", role: "DEVELOPER" });
    await database.user.update({ where: { email: "new.person@example.com" }, data: { disabledAt: new Date() } });
    expect(await signInThroughGlobalSso()).toBeUndefined();
  });
});
