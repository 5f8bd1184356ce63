import * as openid from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { startServer, type TestServer } from "../support/server";
import { accessToken, basic, eventually, newCredential, openDb } from "./gateway-support";

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

const ENVIRONMENTS = ["sso-qa", "sso-prod", "platform-dev", "platform-prod"];

function form(server: TestServer, path: string, authorization: string, body: string) {
  return fetch(`${server.url}${path}`, { method: "POST", headers: { authorization, "content-type": "application/x-www-form-urlencoded" }, body });
}

describe("discovery documents", () => {
  it("publishes RFC 8414 metadata at the path-form location and under the gateway", async () => {
    const inserted = await fetch(`${server.url}/.well-known/oauth-authorization-server/gw/sso-qa`);
    expect(inserted.status).toBe(200);
    const metadata = await inserted.json();
    const issuer = `${server.url}/gw/sso-qa`;
    expect(metadata).toMatchObject({
      issuer,
      token_endpoint: `${issuer}/oauth2/token`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      revocation_endpoint: `${issuer}/oauth2/revoke`,
      introspection_endpoint: `${issuer}/oauth2/introspect`,
      authorization_endpoint: `${server.url}/oauth/sso-qa/authorize`,
      registration_endpoint: `${issuer}/oauth2/register`,
      grant_types_supported: ["client_credentials", "authorization_code", "refresh_token"],
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "private_key_jwt", "none"],
      scopes_supported: ["notifications:read", "notifications:write"],
    });
    const underGateway = await fetch(`${issuer}/.well-known/oauth-authorization-server`);
    expect(await underGateway.json()).toEqual(metadata);
    expect((await fetch(`${server.url}/.well-known/oauth-authorization-server/gw/nowhere`)).status).toBe(404);
  });

  it("publishes only public signing keys, each with kid, use and alg", async () => {
    const response = await fetch(`${server.url}/gw/platform-dev/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    const { keys } = await response.json();
    expect(keys.length).toBeGreaterThanOrEqual(1);
    for (const key of keys) {
      expect(key).toEqual({ kty: "RSA", n: expect.any(String), e: "AQAB", kid: expect.stringMatching(/^key_/), use: "sig", alg: "RS256" });
    }
    const stored = await db.signingKey.findMany();
    for (const row of stored) {
      expect(row.privateKeyEncrypted).toMatch(/^v1\./);
      expect(row.privateKeyEncrypted).not.toContain("PRIVATE KEY");
    }
  });

  it("answers 405 for a POST to the JWKS and 404 for unknown token-service paths", async () => {
    const post = await fetch(`${server.url}/gw/sso-qa/.well-known/jwks.json`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    const unknown = await fetch(`${server.url}/gw/sso-qa/oauth2/authorize`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toBe("application/problem+json");
  });
});

describe("openid-client", () => {
  it.each(ENVIRONMENTS)("discovers %s and obtains a token with client_credentials", async (envSlug) => {
    const client = await newCredential(db, envSlug);
    const configuration = await openid.discovery(
      new URL(`${server.url}/gw/${envSlug}`),
      client.clientId,
      undefined,
      openid.ClientSecretBasic(client.clientSecret),
      {
        algorithm: "oauth2",
        execute: [openid.allowInsecureRequests],
      },
    );
    expect(configuration.serverMetadata().issuer).toBe(`${server.url}/gw/${envSlug}`);
    const tokens = await openid.clientCredentialsGrant(configuration, { scope: "notifications:read" });
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.scope).toBe("notifications:read");
    expect(tokens.expires_in).toBe(3600);
    const call = await fetch(`${server.url}/gw/${envSlug}/notifications/v1/notifications`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(call.status).toBe(200);
  });
});

describe("revocation and introspection", () => {
  it("revokes a client's own token, which the gateway then refuses, and answers 200 for unknown tokens", async () => {
    const client = await newCredential(db, "sso-qa");
    const token = await accessToken(server, "sso-qa", client);
    const api = `${server.url}/gw/sso-qa/notifications/v1/notifications`;
    expect((await fetch(api, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const revoked = await form(server, "/gw/sso-qa/oauth2/revoke", basic(client.clientId, client.clientSecret), `token=${token}`);
    expect(revoked.status).toBe(200);
    expect(revoked.headers.get("cache-control")).toBe("no-store");
    const refused = await fetch(api, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(401);
    expect((await refused.json()).type).toBe(`${server.url}/problems/token-revoked`);
    expect((await form(server, "/gw/sso-qa/oauth2/revoke", basic(client.clientId, client.clientSecret), "token=not-a-token")).status).toBe(200);
    const unauthenticated = await form(server, "/gw/sso-qa/oauth2/revoke", basic(client.clientId, "gsk_wrong"), `token=${token}`);
    expect(unauthenticated.status).toBe(401);
    expect((await unauthenticated.json()).error).toBe("invalid_client");
    expect(await db.revokedToken.count()).toBe(1);
    const revokeLogged = () => db.requestLog.findFirst({ where: { route: "/oauth2/revoke", status: 200 } });
    expect(await eventually(async () => (await revokeLogged()) !== null)).toBe(true);
    expect(await revokeLogged()).toMatchObject({ environment: "sso-qa", api: "global-sso-token", method: "POST" });
  });

  it("does not let one client revoke another's token", async () => {
    const owner = await newCredential(db, "sso-qa");
    const stranger = await newCredential(db, "sso-qa");
    const token = await accessToken(server, "sso-qa", owner);
    expect((await form(server, "/gw/sso-qa/oauth2/revoke", basic(stranger.clientId, stranger.clientSecret), `token=${token}`)).status).toBe(200);
    expect((await fetch(`${server.url}/gw/sso-qa/notifications/v1/notifications`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it("introspects live tokens and answers only active:false for anything else", async () => {
    const upstream = await newCredential(db, "sso-qa");
    const caller = await newCredential(db, "sso-qa");
    const token = await accessToken(server, "sso-qa", caller, "notifications:read");
    const introspect = (value: string) =>
      form(server, "/gw/sso-qa/oauth2/introspect", basic(upstream.clientId, upstream.clientSecret), `token=${encodeURIComponent(value)}`);
    const live = await introspect(token);
    expect(live.status).toBe(200);
    expect(await live.json()).toMatchObject({
      active: true,
      client_id: caller.clientId,
      sub: caller.clientId,
      scope: "notifications:read",
      token_type: "Bearer",
      env: "sso-qa",
    });
    const foreignClient = await newCredential(db, "platform-dev");
    const foreign = await accessToken(server, "platform-dev", foreignClient);
    for (const value of ["garbage", foreign, `${token.slice(0, -4)}AAAA`]) {
      const response = await introspect(value);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ active: false });
    }
    await form(server, "/gw/sso-qa/oauth2/revoke", basic(caller.clientId, caller.clientSecret), `token=${token}`);
    expect(await (await introspect(token)).json()).toEqual({ active: false });
    const anonymous = await fetch(`${server.url}/gw/sso-qa/oauth2/introspect`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${token}`,
    });
    expect(anonymous.status).toBe(400);
  });
});
