// Workload identity federation: a credential trusts an external OIDC issuer, here a real
// issuer on this machine that publishes discovery and a JWKS and signs ID tokens.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashPassword } from "../../lib/accounts/passwords";
import type { Db } from "../../lib/db";
import { newId } from "../../lib/ids";
import { CLIENT_ASSERTION_TYPE } from "../../lib/oauth/assertion-rules";
import { runAdmin } from "../support/admin-cli";
import { type Issuer, ISSUER_AUDIENCE, startIssuer } from "../support/oidc-issuer";
import { startServer, type TestServer } from "../support/server";
import { basic, newCredential, newKeyCredential, openDb, tokenRequest } from "./gateway-support";
import { type PortalClient, signedIn } from "./portal-session";

const AUDIENCE = ISSUER_AUDIENCE;
const SUBJECT = "repo:acme/billing:ref:refs/heads/*";

let server: TestServer;
let strict: TestServer;
let db: Db;
let issuer: Issuer;
let foreign: Issuer;

beforeAll(async () => {
  [issuer, foreign] = await Promise.all([startIssuer(), startIssuer()]);
  [server, strict] = await Promise.all([startServer({ env: { OUTBOUND_ALLOW_PRIVATE: "1" } }), startServer()]);
  db = openDb(server);
});

afterAll(async () => {
  await db?.$disconnect();
  await Promise.all([server?.stop(), strict?.stop()]);
  for (const running of [issuer, foreign]) if (running) await new Promise<void>((resolve) => running.server.close(() => resolve()));
});

function exchange(target: TestServer, clientId: string, idToken: string, envSlug = "sso-qa") {
  return tokenRequest(target, envSlug, {
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: idToken,
    }).toString(),
  });
}

async function expectInvalidClient(response: Response) {
  expect(response.status).toBe(401);
  expect((await response.json()).error).toBe("invalid_client");
}

/** A credential trusting `issuerUrl`, through the admin CLI's exact command. */
async function trusted(target: TestServer, issuerUrl: string) {
  const targetDb = openDb(target);
  try {
    const credential = await newCredential(targetDb, "sso-qa");
    const run = await runAdmin(
      target.databaseUrl,
      "credential",
      "trust",
      "--client",
      credential.clientId,
      "--issuer",
      issuerUrl,
      "--audience",
      AUDIENCE,
      "--subject",
      SUBJECT,
      "--json",
    );
    expect(run.code, run.stderr).toBe(0);
    return { ...credential, output: JSON.parse(run.stdout) };
  } finally {
    await targetDb.$disconnect();
  }
}

describe("workload identity federation", () => {
  it("is set by `credential trust`, which ends the credential's secrets", { timeout: 120_000 }, async () => {
    const credential = await trusted(server, issuer.url);
    expect(credential.output).toMatchObject({
      clientId: credential.clientId,
      authentication: { method: "federated", issuer: issuer.url, audience: AUDIENCE, subject: SUBJECT },
    });
    expect(await db.credentialSecret.count({ where: { credentialId: credential.credentialId, revokedAt: null } })).toBe(0);
    await expectInvalidClient(
      await tokenRequest(server, "sso-qa", {
        headers: { authorization: basic(credential.clientId, credential.clientSecret) },
        body: "grant_type=client_credentials",
      }),
    );
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "credential.trust", targetId: credential.clientId } });
    expect(audit.actorLabel).toBe("cli");
  });

  it("exchanges the issuer's ID token for the credential's usual token, and refuses every token that breaks a rule", { timeout: 120_000 }, async () => {
    const { clientId } = await trusted(server, issuer.url);
    const issued = await exchange(server, clientId, await issuer.sign());
    expect(issued.status).toBe(200);
    const body = await issued.json();
    expect(body).toMatchObject({ token_type: "Bearer", scope: "notifications:read notifications:write" });
    expect(issuer.requests).toEqual(expect.arrayContaining(["/.well-known/openid-configuration", "/keys"]));

    const now = Math.floor(Date.now() / 1000);
    await expectInvalidClient(await exchange(server, clientId, await issuer.sign({ sub: "repo:acme/other:ref:refs/heads/main" })));
    await expectInvalidClient(await exchange(server, clientId, await issuer.sign({ sub: "repo:acme/billing:pull_request" })));
    await expectInvalidClient(await exchange(server, clientId, await issuer.sign({ aud: "https://elsewhere.example" })));
    await expectInvalidClient(await exchange(server, clientId, await issuer.sign({ iat: now - 600, nbf: now - 600, exp: now - 60 })));
    await expectInvalidClient(await exchange(server, clientId, await issuer.sign({ nbf: now + 600 })));
    await expectInvalidClient(await exchange(server, clientId, await foreign.sign()));
    await expectInvalidClient(await exchange(server, clientId, await foreign.sign({ iss: issuer.url })));

    const once = await issuer.sign();
    expect((await exchange(server, clientId, once)).status).toBe(200);
    await expectInvalidClient(await exchange(server, clientId, once));
  });

  it("needs client_id: the ID token's subject names no credential", async () => {
    const { clientId } = await trusted(server, issuer.url);
    const response = await tokenRequest(server, "sso-qa", {
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_assertion_type: CLIENT_ASSERTION_TYPE,
        client_assertion: await issuer.sign(),
      }).toString(),
    });
    await expectInvalidClient(response);
    expect((await exchange(server, clientId, await issuer.sign())).status).toBe(200);
  });

  it("refuses an issuer or a jwks_uri on a loopback address without OUTBOUND_ALLOW_PRIVATE=1", { timeout: 120_000 }, async () => {
    const { clientId } = await trusted(strict, issuer.url);
    const before = issuer.requests.length;
    await expectInvalidClient(await exchange(strict, clientId, await issuer.sign()));
    expect(issuer.requests.length).toBe(before);

    const strictDb = openDb(strict);
    try {
      const keys = await newKeyCredential(strictDb, "sso-qa", { jwksUri: `${issuer.url}/keys` });
      expect(keys.credential.authentication).toMatchObject({ method: "private_key_jwt", jwksUri: `${issuer.url}/keys` });
      await expectInvalidClient(
        await exchange(strict, keys.clientId, await issuer.sign({ iss: keys.clientId, sub: keys.clientId, aud: `${strict.url}/gw/sso-qa` })),
      );
      expect(issuer.requests.length).toBe(before);
    } finally {
      await strictDb.$disconnect();
    }
  });

  it("is kept in the configuration file: applied once, updated by field, exported, and refused for an unknown client", { timeout: 120_000 }, async () => {
    const credential = await newCredential(db, "sso-qa");
    const directory = await mkdtemp(join(tmpdir(), "gatehouse-trust-"));
    const config = (...args: string[]) => runAdmin(server.databaseUrl, "config", ...args);
    try {
      const path = join(directory, "gatehouse.yaml");
      const trustFile = (client: string, subject: string) =>
        writeFile(path, `trust:\n  - client: ${client}\n    issuer: ${issuer.url}\n    audience: ${AUDIENCE}\n    subject: "${subject}"\n`);
      await trustFile(credential.clientId, "repo:acme/billing:ref:refs/heads/main");
      expect(await config("apply", "-f", path)).toMatchObject({ code: 0, stdout: `changed:\n  create trust ${credential.clientId}\n` });
      expect((await exchange(server, credential.clientId, await issuer.sign())).status).toBe(200);
      expect(await config("apply", "-f", path)).toMatchObject({ code: 0, stdout: "no changes\n" });

      await trustFile(credential.clientId, "repo:acme/billing:ref:refs/heads/release");
      expect(await config("apply", "-f", path)).toMatchObject({ code: 0, stdout: `changed:\n  update trust ${credential.clientId}: subject\n` });
      // The server keeps a credential's state up to 5 s, so a change made by another process reaches it within that (§4).
      await vi.waitFor(async () => expectInvalidClient(await exchange(server, credential.clientId, await issuer.sign())), { timeout: 10_000, interval: 250 });
      expect((await config("export")).stdout).toContain(`client: ${credential.clientId}`);

      await trustFile("gci_000000000000000000000000", "repo:acme/billing:*");
      const refused = await config("apply", "-f", path);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toContain(`${path}:2: trust[0].client: there is no active credential "gci_000000000000000000000000"`);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

const PASSWORD = "federation-password-for-tests";
type Person = { email: string; portal: PortalClient; token: string };

/** A signed-in user of `target` with a personal access token for credentials; `team` adds them to that team with `role`. */
async function person(target: TestServer, targetDb: Db, name: string, team?: { id: string; role: "admin" | "member" }): Promise<Person> {
  const id = newId("usr");
  const email = `${name}-${target.url.split(":").pop()}@federation.example.com`;
  await targetDb.user.create({ data: { id, email, name, passwordHash: await hashPassword(PASSWORD) } });
  if (team) await targetDb.teamMember.create({ data: { teamId: team.id, userId: id, role: team.role } });
  const run = await runAdmin(
    target.databaseUrl,
    "token",
    "create",
    "--user",
    email,
    "--scopes",
    "credentials:read credentials:write",
    "--expires-in",
    "1d",
    "--json",
  );
  expect(run.code, run.stderr).toBe(0);
  return { email, portal: await signedIn(target, email, PASSWORD), token: (JSON.parse(run.stdout) as { token: string }).token };
}

/** The owner of a team, and its admin, a member and an outsider. */
async function teamOf(target: TestServer, targetDb: Db) {
  const owner = await person(target, targetDb, "owner");
  const created = await owner.portal.post("/api/portal/teams", { name: "Deployments" });
  expect(created.status).toBe(201);
  const team = (await created.json()) as { id: string };
  const admin = await person(target, targetDb, "admin", { id: team.id, role: "admin" });
  const member = await person(target, targetDb, "member", { id: team.id, role: "member" });
  return { teamId: team.id, admin, member, outsider: await person(target, targetDb, "outsider") };
}

function v1(target: TestServer, token: string, method: string, path: string, body: unknown) {
  return fetch(`${target.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = (await response.json()) as { type: string; errors?: { field: string; message: string }[] };
  expect(body.type).toMatch(new RegExp(`/problems/${code}$`));
  return body.errors?.map((error) => error.field) ?? [];
}

describe("trusting an issuer from the portal and the management API", () => {
  let people: Awaited<ReturnType<typeof teamOf>>;
  const trust = () => ({ issuer: issuer.url, audience: AUDIENCE, subject: SUBJECT });
  const federated = () => ({ method: "federated", issuer: issuer.url, audience: AUDIENCE, subject: SUBJECT });

  beforeAll(async () => {
    people = await teamOf(server, db);
  }, 120_000);

  it("creates a trusting credential in Settings' route and in /api/v1, without a secret; its ID tokens get tokens", { timeout: 120_000 }, async () => {
    const viaPortal = await people.admin.portal.post("/api/portal/credentials", {
      application: "Deploy portal",
      environment: "platform-dev",
      team: people.teamId,
      trust: trust(),
    });
    expect(viaPortal.status).toBe(201);
    const portalBody = (await viaPortal.json()) as { credential: { clientId: string; authentication: unknown }; secret: unknown };
    expect(portalBody).toMatchObject({ secret: null, credential: { authentication: federated() } });

    const viaApi = await v1(server, people.admin.token, "POST", "/credentials", { application: "Deploy api", environment: "platform-dev", trust: trust() });
    expect(viaApi.status).toBe(201);
    const apiBody = (await viaApi.json()) as { credential: { clientId: string; authentication: unknown }; secret: unknown };
    expect(apiBody).toMatchObject({ secret: null, credential: { authentication: federated() } });

    for (const clientId of [portalBody.credential.clientId, apiBody.credential.clientId]) {
      expect(await db.credentialSecret.count({ where: { credential: { clientId } } })).toBe(0);
      const issued = await exchange(server, clientId, await issuer.sign(), "platform-dev");
      expect(issued.status).toBe(200);
      expect((await issued.json()).token_type).toBe("Bearer");
    }
    const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "credential.create", targetId: portalBody.credential.clientId } });
    expect(audit.details).toMatchObject({ authMethod: "federated", issuer: issuer.url, audience: AUDIENCE, subject: SUBJECT });
  });

  it("sets the trust of an existing credential for a team admin only, and ends its secrets", { timeout: 120_000 }, async () => {
    for (const [via, put] of [
      ["portal", (who: Person, clientId: string, body: unknown) => who.portal.put(`/api/portal/credentials/${clientId}/trust`, body)],
      ["api", (who: Person, clientId: string, body: unknown) => v1(server, who.token, "PUT", `/credentials/${clientId}/trust`, body)],
    ] as const) {
      const created = await people.admin.portal.post("/api/portal/credentials", {
        application: `Legacy ${via}`,
        environment: "platform-dev",
        team: people.teamId,
      });
      expect(created.status).toBe(201);
      const { credential, secret } = (await created.json()) as { credential: { clientId: string }; secret: { clientSecret: string } };

      await expectProblem(await put(people.member, credential.clientId, trust()), 403, "team-role-required");
      await expectProblem(await put(people.outsider, credential.clientId, trust()), 404, "not-found");
      expect(await db.credential.findUniqueOrThrow({ where: { clientId: credential.clientId } })).toMatchObject({
        authMethod: "CLIENT_SECRET",
        trustIssuer: null,
      });

      const trusted = await put(people.admin, credential.clientId, trust());
      expect(trusted.status).toBe(200);
      expect(await trusted.json()).toMatchObject({ clientId: credential.clientId, authentication: federated() });
      await expectInvalidClient(
        await tokenRequest(server, "platform-dev", {
          headers: { authorization: basic(credential.clientId, secret.clientSecret) },
          body: "grant_type=client_credentials",
        }),
      );
      expect((await exchange(server, credential.clientId, await issuer.sign(), "platform-dev")).status).toBe(200);
      const audit = await db.auditEvent.findFirstOrThrow({ where: { action: "credential.trust", targetId: credential.clientId } });
      expect(audit.actorLabel).not.toBe("cli");
    }
  });

  it("refuses an issuer the server may not fetch, naming the field, without OUTBOUND_ALLOW_PRIVATE=1", { timeout: 120_000 }, async () => {
    const strictDb = openDb(strict);
    try {
      const admin = await person(strict, strictDb, "strict-admin");
      const loopback = "https://127.0.0.1:8443";
      const create = (issuerUrl: string) =>
        admin.portal.post("/api/portal/credentials", { application: "Strict", environment: "platform-dev", trust: { ...trust(), issuer: issuerUrl } });
      expect(await expectProblem(await create(issuer.url), 400, "validation-failed")).toEqual(["trust.issuer"]);
      expect(await expectProblem(await create(loopback), 400, "validation-failed")).toEqual(["trust.issuer"]);
      const apiCreate = await v1(strict, admin.token, "POST", "/credentials", {
        application: "Strict",
        environment: "platform-dev",
        trust: { ...trust(), issuer: loopback },
      });
      expect(await expectProblem(apiCreate, 400, "validation-failed")).toEqual(["trust.issuer"]);
      expect(await strictDb.credential.count({ where: { application: { name: "Strict" } } })).toBe(0);

      const created = await admin.portal.post("/api/portal/credentials", { application: "Strict", environment: "platform-dev" });
      expect(created.status).toBe(201);
      const { clientId } = ((await created.json()) as { credential: { clientId: string } }).credential;
      const portalPut = await admin.portal.put(`/api/portal/credentials/${clientId}/trust`, { ...trust(), issuer: issuer.url });
      expect(await expectProblem(portalPut, 400, "validation-failed")).toEqual(["issuer"]);
      const apiPut = await v1(strict, admin.token, "PUT", `/credentials/${clientId}/trust`, { ...trust(), issuer: loopback });
      expect(await expectProblem(apiPut, 400, "validation-failed")).toEqual(["issuer"]);
      expect(await strictDb.credential.findUniqueOrThrow({ where: { clientId } })).toMatchObject({ authMethod: "CLIENT_SECRET", trustIssuer: null });
    } finally {
      await strictDb.$disconnect();
    }
  });

  it("refuses a jwks_uri or an issuer on an address that carries a non-public IPv4 or is reserved for documentation, naming the field", {
    timeout: 120_000,
  }, async () => {
    const strictDb = openDb(strict);
    try {
      const admin = await person(strict, strictDb, "strict-keys");
      const create = (via: "portal" | "api", keys: Record<string, unknown>) => {
        const body = { application: "Strict keys", environment: "platform-dev", ...keys };
        return via === "portal" ? admin.portal.post("/api/portal/credentials", body) : v1(strict, admin.token, "POST", "/credentials", body);
      };
      for (const host of ["[64:ff9b::a9fe:a9fe]", "[2002:a9fe:a9fe::1]", "[::ffff:0:7f00:1]", "192.0.2.1", "127.0.0.1"]) {
        for (const via of ["portal", "api"] as const) {
          expect(await expectProblem(await create(via, { jwksUri: `https://${host}/keys` }), 400, "validation-failed"), `${via} ${host}`).toEqual(["jwksUri"]);
          expect(
            await expectProblem(await create(via, { trust: { ...trust(), issuer: `https://${host}` } }), 400, "validation-failed"),
            `${via} ${host}`,
          ).toEqual(["trust.issuer"]);
        }
      }
      expect(await strictDb.credential.count({ where: { application: { name: "Strict keys" } } })).toBe(0);
    } finally {
      await strictDb.$disconnect();
    }
  });

  it("takes a jwks_uri on a loopback address with OUTBOUND_ALLOW_PRIVATE=1", { timeout: 120_000 }, async () => {
    const created = await v1(server, people.admin.token, "POST", "/credentials", {
      application: "Loopback keys",
      environment: "platform-dev",
      jwksUri: `${issuer.url}/keys`,
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ secret: null, credential: { authentication: { method: "private_key_jwt", jwksUri: `${issuer.url}/keys` } } });
  });

  it('refuses a subject with more than 8 "*", naming the field', { timeout: 120_000 }, async () => {
    const subject = "*".repeat(61);
    const apiCreate = await v1(server, people.admin.token, "POST", "/credentials", {
      application: "Starry",
      environment: "platform-dev",
      trust: { ...trust(), subject },
    });
    expect(await expectProblem(apiCreate, 400, "validation-failed")).toEqual(["trust.subject"]);
    const portalCreate = await people.admin.portal.post("/api/portal/credentials", {
      application: "Starry",
      environment: "platform-dev",
      trust: { ...trust(), subject },
    });
    expect(await expectProblem(portalCreate, 400, "validation-failed")).toEqual(["trust.subject"]);
    expect(await db.credential.count({ where: { application: { name: "Starry" } } })).toBe(0);

    const created = await people.admin.portal.post("/api/portal/credentials", { application: "Starry", environment: "platform-dev" });
    expect(created.status).toBe(201);
    const { clientId } = ((await created.json()) as { credential: { clientId: string } }).credential;
    const apiPut = await v1(server, people.admin.token, "PUT", `/credentials/${clientId}/trust`, { ...trust(), subject: "*a*a*a*a*a*a*a*a*b" });
    expect(await expectProblem(apiPut, 400, "validation-failed")).toEqual(["subject"]);
    const portalPut = await people.admin.portal.put(`/api/portal/credentials/${clientId}/trust`, { ...trust(), subject });
    expect(await expectProblem(portalPut, 400, "validation-failed")).toEqual(["subject"]);
    const trusted = await v1(server, people.admin.token, "PUT", `/credentials/${clientId}/trust`, { ...trust(), subject: "*a*a*a*a*a*a*a*b" });
    expect(trusted.status).toBe(200);
  });
});
