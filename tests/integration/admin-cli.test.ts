import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseLabel } from "../../lib/database-label";
import type { Db } from "../../lib/db";
import { verifyPassword } from "../../lib/accounts/passwords";
import { runAdminProcess, runScript } from "../support/admin-cli";
import { startServer, type TestServer } from "../support/server";
import { accessToken, basic, eventually, openDb, tokenRequest } from "./gateway-support";

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

/** The compiled CLI in a process of its own, as an operator runs it: its exit status and its output through a pipe. */
function admin(...args: string[]) {
  return runAdminProcess(server.databaseUrl, ...args);
}

describe("admin command line", () => {
  it("credential create prints JSON whose secret works at the token endpoint, then credential revoke stops it", { timeout: 120_000 }, async () => {
    const created = await admin("credential", "create", "--app", "CLI App", "--env", "platform-dev", "--json");
    expect(created.code).toBe(0);
    const output = JSON.parse(created.stdout);
    expect(output).toEqual({
      database: databaseLabel(server.databaseUrl),
      clientId: expect.stringMatching(/^gci_/),
      clientSecret: expect.stringMatching(/^gsk_[A-Za-z0-9_-]{43}$/),
      authMethod: "client_secret",
      env: "platform-dev",
      scopes: ["notifications:read", "notifications:write"],
      requireDpop: false,
    });
    const token = await accessToken(server, "platform-dev", output);
    expect(token.split(".")).toHaveLength(3);
    const application = await db.application.findFirstOrThrow({ where: { name: "CLI App" } });
    expect(application.ownerId).toBeNull();
    const audit = await db.auditEvent.findMany({ where: { targetId: output.clientId } });
    expect(audit.map((event) => [event.action, event.actorLabel]).sort()).toEqual([
      ["credential.create", "cli"],
      ["credential.secret.issue", "cli"],
    ]);

    const revoked = await admin("credential", "revoke", output.clientId, "--json");
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ clientId: output.clientId, status: "REVOKED" });
    const refused = await eventually(async () => {
      const response = await tokenRequest(server, "platform-dev", {
        headers: { authorization: basic(output.clientId, output.clientSecret) },
        body: "grant_type=client_credentials",
      });
      return response.status === 401;
    });
    expect(refused).toBe(true);
    expect((await admin("credential", "revoke", output.clientId)).code).not.toBe(0);
  });

  it("credential create narrows scopes and assigns an owner", { timeout: 120_000 }, async () => {
    const created = await admin(
      "credential",
      "create",
      "--app",
      "Reader",
      "--env",
      "sso-qa",
      "--scope",
      "notifications:read",
      "--owner",
      "developer@example.com",
      "--json",
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout).scopes).toEqual(["notifications:read"]);
    const application = await db.application.findFirstOrThrow({ where: { name: "Reader" }, include: { owner: true } });
    expect(application.owner?.email).toBe("developer@example.com");
  });

  it.each([
    [["credential", "create", "--env", "sso-qa"], "--app is required"],
    [["credential", "create", "--app", "X", "--env", "nowhere"], 'no environment "nowhere"'],
    [["credential", "create", "--app", "X", "--env", "sso-qa", "--scope", "nope:read"], "--scope"],
    [["credential", "create", "--app", "X", "--env", "sso-qa", "--owner", "nobody@example.com"], "--owner"],
    [["credential", "create", "--app", "X", "--env", "sso-qa", "--colour", "red"], "unknown option --colour"],
    [["credential", "revoke"], "usage"],
    [["user", "create", "--email", "not-an-email", "--password", "long-enough-1", "--role", "ADMIN"], "--email"],
    [["user", "create", "--email", "a@example.com", "--password", "short", "--role", "ADMIN"], "--password"],
    [["user", "create", "--email", "a@example.com", "--password", "long-enough-1", "--role", "ROOT"], "--role"],
    [["key", "rotate", "--env", "nowhere"], 'no environment "nowhere"'],
  ])("exits non-zero with a one-line reason for %j", async (args, reason) => {
    const result = await admin(...args);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain(reason);
  });

  it.each([
    [["credential", "create", "--json", "--app"], 2, "--app needs a value", undefined],
    [["nowhere", "list", "--json"], 2, 'unknown group "nowhere"', undefined],
    [["credential", "create", "--app", "X", "--env", "nowhere", "--json"], 2, 'no environment "nowhere"', "database"],
    [["user", "set-password", "--email", "nobody@example.com", "--generate", "--json"], 2, 'no user "nobody@example.com"', "database"],
  ])("under --json, answers %j with one JSON object on stderr and nothing on stdout", async (args, code, reason, database) => {
    const result = await admin(...args);
    expect(result.code).toBe(code);
    expect(result.stdout).toBe("");
    const error = JSON.parse(result.stderr);
    expect(error.error).toContain(reason);
    expect(error.database).toBe(database && databaseLabel(server.databaseUrl));
  });

  it("help lists every group's commands and options, from their declarations", { timeout: 120_000 }, async () => {
    const help = await admin("help");
    expect(help.code).toBe(0);
    for (const line of [
      "user set-password --email <email> (--password <password> | --generate)",
      "credential list [--env <slug>] [--app <name>] [--owner <email>]",
      "environment list",
      "api list",
      "api version add --api <slug> --version <v> --openapi <file> [--status beta|current]",
      'api deprecate --api <slug> --version <v> [--operation "GET /v1/path"] [--date <date>] [--sunset <date>]',
      "api retire --api <slug> --version <v>",
      "request list [--status pending|approved|rejected]",
      "key rotate --env <slug>",
    ]) {
      expect(help.stdout).toContain(line);
    }
    expect(help.stdout).toContain("credential rotate <clientId> [--overlap <duration>] [--json]\n");
    for (const line of help.stdout.split("\n")) expect(line.match(/\[--json\]/g)?.length ?? 0, line).toBeLessThanOrEqual(1);
    const group = await admin("credential", "--help");
    expect(group.code).toBe(0);
    expect(group.stdout).toContain("credential revoke <clientId>");
    expect(group.stdout).not.toContain("user list");
    const bare = await admin();
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("usage: npm run --silent admin --");
  });

  it("lists users, credentials, environments, APIs and access requests, naming the database", { timeout: 120_000 }, async () => {
    const database = databaseLabel(server.databaseUrl);
    const users = JSON.parse((await admin("user", "list", "--json")).stdout);
    expect(users.database).toBe(database);
    expect(users.users.map((user: { email: string }) => user.email)).toEqual(expect.arrayContaining(["admin@example.com", "developer@example.com"]));
    expect(JSON.stringify(users)).not.toContain("passwordHash");
    const credentials = JSON.parse((await admin("credential", "list", "--env", "platform-dev", "--owner", "developer@example.com", "--json")).stdout);
    expect(credentials.credentials).toEqual([expect.objectContaining({ env: "platform-dev", application: "Demo Application", status: "ACTIVE" })]);
    const environments = JSON.parse((await admin("environment", "list", "--json")).stdout);
    expect(environments.environments.map((env: { slug: string }) => env.slug)).toEqual(["sso-qa", "sso-prod", "platform-dev", "platform-prod"]);
    const apis = JSON.parse((await admin("api", "list", "--json")).stdout);
    // The built-in Notifications API 1.0.0 is its one version, v1.
    expect(apis.apis).toContainEqual(
      expect.objectContaining({ slug: "notifications", kind: "NOTIFICATIONS", version: "1.0.0", versions: [{ version: "v1", status: "current" }] }),
    );
    const requests = JSON.parse((await admin("request", "list", "--status", "pending", "--json")).stdout);
    expect(requests).toEqual({ database, requests: [] });
    const human = await admin("credential", "list", "--env", "sso-qa");
    expect(human.stdout.split("\n")[0]).toBe(`database: ${database}`);
    expect(human.stdout).toMatch(/clientId\s+env\s+application\s+status/);
  });

  it("db:reset refuses to run unattended without --yes and changes nothing", { timeout: 120_000 }, async () => {
    const users = await db.user.count();
    const refused = await runScript(server.databaseUrl, "scripts/db.ts", "reset");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("run `npm run db:reset -- --yes` to confirm");
    expect(await db.user.count()).toBe(users);
  });

  it("user set-password sets a given or generated password, audited, held to 12 characters", { timeout: 120_000 }, async () => {
    const weak = await admin("user", "set-password", "--email", "developer@example.com", "--password", "only-eleven");
    expect(weak.code).toBe(2);
    expect(weak.stderr).toContain("--password: must be at least 12 characters");
    const given = await admin("user", "set-password", "--email", "developer@example.com", "--password", "a-new-password-1", "--json");
    expect(given.code).toBe(0);
    expect(JSON.parse(given.stdout)).not.toHaveProperty("password");
    let user = await db.user.findUniqueOrThrow({ where: { email: "developer@example.com" } });
    expect(await verifyPassword("a-new-password-1", user.passwordHash!)).toBe(true);
    const generated = JSON.parse((await admin("user", "set-password", "--email", "developer@example.com", "--generate", "--json")).stdout);
    expect(generated.password).toMatch(/^[\w-]{20}$/);
    user = await db.user.findUniqueOrThrow({ where: { email: "developer@example.com" } });
    expect(await verifyPassword(generated.password, user.passwordHash!)).toBe(true);
    expect(await db.auditEvent.count({ where: { action: "user.password.set", targetId: user.id } })).toBe(2);
    expect((await admin("user", "set-password", "--email", "nobody@example.com", "--generate")).stderr).toContain('no user "nobody@example.com"');
  });

  it("user create stores a scrypt hash and refuses a duplicate email", { timeout: 120_000 }, async () => {
    const created = await admin("user", "create", "--email", "Ops@Example.com", "--password", "ops-password-1", "--role", "ADMIN", "--json");
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ email: "ops@example.com", role: "ADMIN" });
    const user = await db.user.findUniqueOrThrow({ where: { email: "ops@example.com" } });
    expect(await verifyPassword("ops-password-1", user.passwordHash!)).toBe(true);
    const again = await admin("user", "create", "--email", "ops@example.com", "--password", "ops-password-1", "--role", "ADMIN");
    expect(again.code).not.toBe(0);
  });

  it("key rotate signs with a new key and keeps the old one published", { timeout: 120_000 }, async () => {
    const jwks = async () =>
      ((await (await fetch(`${server.url}/gw/sso-qa/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid);
    const before = await jwks();
    expect(before).toHaveLength(1);
    const rotated = await admin("key", "rotate", "--env", "sso-qa", "--json");
    expect(rotated.code).toBe(0);
    const output = JSON.parse(rotated.stdout);
    expect(output).toMatchObject({ env: "sso-qa", kid: expect.stringMatching(/^key_/), retired: before });
    expect(await eventually(async () => (await jwks()).length === 2)).toBe(true);
    expect((await jwks()).sort()).toEqual([...before, output.kid].sort());
    const credential = JSON.parse((await admin("credential", "create", "--app", "After Rotation", "--env", "sso-qa", "--json")).stdout);
    const signedBy = async () => JSON.parse(Buffer.from((await accessToken(server, "sso-qa", credential)).split(".")[0]!, "base64url").toString()).kid;
    expect(await eventually(async () => (await signedBy()) === output.kid)).toBe(true);
  });
});
