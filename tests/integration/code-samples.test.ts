// The code samples the portal shows, run for real: curl through sh, JavaScript
// through plain node, Python through python3, against the built server.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { exportJWK, exportPKCS8, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeSamples, type SampleAuthentication, type SampleLanguage } from "../../lib/catalog/code-samples";
import { listOperations, type Operation } from "../../lib/catalog/operations";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { createApiKey } from "../../lib/credentials/api-keys";
import type { Db } from "../../lib/db";
import { createNotifications } from "../../lib/notifications/create-notifications";
import { freePort, startServer, type TestServer } from "../support/server";
import { eventually, newCredential, newKeyCredential, openDb } from "./gateway-support";

const run = promisify(execFile);
const LANGUAGES = ["curl", "javascript", "python"] as const;

const INTERPRETERS: Record<SampleLanguage, { command: string; file: string }> = {
  curl: { command: "sh", file: "sample.sh" },
  javascript: { command: "node", file: "sample.js" },
  python: { command: "python3", file: "sample.py" },
};

let server: TestServer;
let db: Db;
let directory: string;
let client: Awaited<ReturnType<typeof newCredential>>;
let notificationId: string;
let operations: Operation[];

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
  directory = await mkdtemp(join(tmpdir(), "gatehouse-samples-"));
  client = await newCredential(db, "sso-qa");
  const environment = await db.environment.findUniqueOrThrow({ where: { slug: "sso-qa" } });
  [notificationId] = (await createNotifications({ db, environmentId: environment.id, recipients: { clientIds: [client.clientId] }, title: "Sample" })) as [
    string,
  ];
  const spec = await (await fetch(`${server.url}/apis/notifications/openapi.json?env=sso-qa`)).json();
  operations = listOperations(spec);
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
  if (directory) await rm(directory, { recursive: true, force: true });
});

type Outcome = { code: number; stdout: string; stderr: string };

/** Runs a sample as its reader would, to its exit code, whatever that is. */
async function runSample(language: SampleLanguage, code: string, env: Record<string, string>): Promise<Outcome> {
  const { command, file } = INTERPRETERS[language];
  const path = join(directory, `${language}-${file}`);
  await writeFile(path, code);
  try {
    const { stdout, stderr } = await run(command, [path], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as Outcome;
    return { code, stdout, stderr };
  }
}

/** A Python traceback or a JavaScript stack frame. */
const STACK_TRACE = /Traceback|^ {4}at /m;

function samplesFor(method: string, path: string, authentication?: SampleAuthentication, gatehouseUrl?: string) {
  const operation = operations.find((item) => item.method === method && item.path === path)!;
  expect(operation).toBeDefined();
  const origin = gatehouseUrl ?? server.url;
  return codeSamples({
    tokenEndpoint: `${origin}/gw/sso-qa/oauth2/token`,
    serverUrl: `${origin}/gw/sso-qa/notifications`,
    operation,
    authentication,
    gatehouseUrl,
  });
}

describe("code samples", () => {
  it("never inline a secret: they read CLIENT_ID and CLIENT_SECRET from the environment", () => {
    for (const sample of samplesFor("GET", "/v1/notifications")) {
      expect(sample.code).toContain("CLIENT_ID");
      expect(sample.code).toContain("CLIENT_SECRET");
      expect(sample.code).not.toContain(client.clientSecret);
      expect(sample.code).not.toContain(client.clientId);
    }
  });

  it.each(LANGUAGES)("%s lists the client's notifications with a token from the environment's endpoint, and exits 0", async (language) => {
    const sample = samplesFor("GET", "/v1/notifications").find((item) => item.language === language)!;
    const { code, stdout, stderr } = await runSample(language, sample.code, { CLIENT_ID: client.clientId, CLIENT_SECRET: client.clientSecret });
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const body = JSON.parse(stdout);
    expect(body.items.map((item: { id: string }) => item.id)).toEqual([notificationId]);
  });

  it.each(LANGUAGES)("%s fills path parameters from the environment and sends the example body", async (language) => {
    const sample = samplesFor("PUT", "/v1/notifications/{id}").find((item) => item.language === language)!;
    const { code, stdout } = await runSample(language, sample.code, { CLIENT_ID: client.clientId, CLIENT_SECRET: client.clientSecret, ID: notificationId });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ id: notificationId, status: "read" });
  });

  it.each(LANGUAGES)(
    "%s prints the token endpoint's invalid_client problem on stderr for a wrong secret and exits 1, without a stack trace",
    async (language) => {
      const sample = samplesFor("GET", "/v1/notifications").find((item) => item.language === language)!;
      const { code, stdout, stderr } = await runSample(language, sample.code, { CLIENT_ID: client.clientId, CLIENT_SECRET: "gsk_wrong" });
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(stderr).toContain("The token endpoint refused:");
      expect(stderr).toContain('"invalid_client"');
      expect(stderr).not.toMatch(STACK_TRACE);
    },
  );

  it.each(LANGUAGES)("%s prints the API's problem on stderr when it refuses the call and exits 1, without a stack trace", async (language) => {
    const sample = samplesFor("GET", "/v1/notifications/{id}").find((item) => item.language === language)!;
    const { code, stdout, stderr } = await runSample(language, sample.code, {
      CLIENT_ID: client.clientId,
      CLIENT_SECRET: client.clientSecret,
      ID: "ntf_unknown",
    });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain("The API refused:");
    expect(stderr).toContain('"status":404');
    expect(stderr).not.toMatch(STACK_TRACE);
  });

  it.each(LANGUAGES)("%s without CLIENT_ID and CLIENT_SECRET says to set them and exits 1 without a stack trace", async (language) => {
    const sample = samplesFor("GET", "/v1/notifications").find((item) => item.language === language)!;
    const { code, stdout, stderr } = await runSample(language, sample.code, { CLIENT_ID: "", CLIENT_SECRET: "" });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain("Set CLIENT_ID in the environment");
    expect(stderr).not.toMatch(STACK_TRACE);
  });

  describe("as the README writes them, for http://localhost:3000", () => {
    const readmeSamples = () => samplesFor("GET", "/v1/notifications", undefined, "http://localhost:3000");

    it.each(LANGUAGES)("%s calls the gateway GATEHOUSE_URL names", async (language) => {
      const sample = readmeSamples().find((item) => item.language === language)!;
      const { code, stdout, stderr } = await runSample(language, sample.code, {
        CLIENT_ID: client.clientId,
        CLIENT_SECRET: client.clientSecret,
        GATEHOUSE_URL: server.url,
      });
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(JSON.parse(stdout).items.map((item: { id: string }) => item.id)).toEqual([notificationId]);
    });

    it.each(LANGUAGES)("%s says the connection was refused when nothing listens at GATEHOUSE_URL, and exits 1", async (language) => {
      const sample = readmeSamples().find((item) => item.language === language)!;
      const { code, stdout, stderr } = await runSample(language, sample.code, {
        CLIENT_ID: client.clientId,
        CLIENT_SECRET: client.clientSecret,
        GATEHOUSE_URL: `http://127.0.0.1:${await freePort()}`,
      });
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(stderr).toMatch(/ECONNREFUSED|Connection refused|Failed to connect|Couldn't connect/);
      expect(stderr).not.toContain("The token endpoint refused");
      expect(stderr).not.toMatch(STACK_TRACE);
    });
  });

  describe("with private_key_jwt", () => {
    let keyClient: { clientId: string; keyFile: string; notificationId: string };

    beforeAll(async () => {
      const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
      const keyFile = join(directory, "client-key.pem");
      await writeFile(keyFile, await exportPKCS8(privateKey));
      const { clientId } = await newKeyCredential(db, "sso-qa", { jwks: { keys: [{ ...(await exportJWK(publicKey)), alg: "RS256", use: "sig" }] } });
      const environment = await db.environment.findUniqueOrThrow({ where: { slug: "sso-qa" } });
      const [id] = (await createNotifications({ db, environmentId: environment.id, recipients: { clientIds: [clientId] }, title: "Keys" })) as [string];
      keyClient = { clientId, keyFile, notificationId: id };
    });

    it("read CLIENT_ID and PRIVATE_KEY_FILE, never a secret", () => {
      for (const sample of samplesFor("GET", "/v1/notifications", "private_key_jwt")) {
        expect(sample.code).toContain("PRIVATE_KEY_FILE");
        expect(sample.code).not.toContain("CLIENT_SECRET");
      }
    });

    it.each(LANGUAGES)("%s signs an assertion with the key file, gets a token and lists the client's notifications", async (language) => {
      const sample = samplesFor("GET", "/v1/notifications", "private_key_jwt").find((item) => item.language === language)!;
      const { code, stdout, stderr } = await runSample(language, sample.code, { CLIENT_ID: keyClient.clientId, PRIVATE_KEY_FILE: keyClient.keyFile });
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(JSON.parse(stdout).items.map((item: { id: string }) => item.id)).toEqual([keyClient.notificationId]);
    });

    it.each(LANGUAGES)("%s prints invalid_client on stderr for another client's id and exits 1, without a stack trace", async (language) => {
      const sample = samplesFor("GET", "/v1/notifications", "private_key_jwt").find((item) => item.language === language)!;
      const { code, stderr } = await runSample(language, sample.code, { CLIENT_ID: client.clientId, PRIVATE_KEY_FILE: keyClient.keyFile });
      expect(code).toBe(1);
      expect(stderr).toContain('"invalid_client"');
      expect(stderr).not.toMatch(STACK_TRACE);
    });
  });

  describe("with an API key, for an API whose authentication lists apiKey", () => {
    let keyed: { key: string; notificationId: string };

    beforeAll(async () => {
      const app = `Samples Keys ${Date.now()}`;
      const { clientId } = await newCredential(db, "sso-qa", { app });
      const { key } = await createApiKey({ db, actor: CLI_ACTOR, viewer: "operator", input: { application: app, environment: "sso-qa" } });
      const environment = await db.environment.findUniqueOrThrow({ where: { slug: "sso-qa" } });
      const [id] = (await createNotifications({ db, environmentId: environment.id, recipients: { clientIds: [clientId] }, title: "Keyed" })) as [string];
      keyed = { key, notificationId: id };
      await db.api.update({ where: { slug: "notifications" }, data: { authentication: "oauth2 apiKey" } });
      const accepted = () => fetch(`${server.url}/gw/sso-qa/notifications/v1/notifications`, { headers: { "x-api-key": key } });
      expect(await eventually(async () => (await accepted()).status === 200)).toBe(true);
    });

    it("read API_KEY, never a client secret, and ask for no token", () => {
      for (const sample of samplesFor("GET", "/v1/notifications", "api_key")) {
        expect(sample.code).toContain("API_KEY");
        expect(sample.code).not.toContain("CLIENT_SECRET");
        expect(sample.code).not.toContain("oauth2/token");
        expect(sample.code).not.toContain(keyed.key);
      }
    });

    it.each(LANGUAGES)("%s sends the key as X-API-Key and lists the credential's notifications", async (language) => {
      const sample = samplesFor("GET", "/v1/notifications", "api_key").find((item) => item.language === language)!;
      const { code, stdout, stderr } = await runSample(language, sample.code, { API_KEY: keyed.key });
      expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
      expect(JSON.parse(stdout).items.map((item: { id: string }) => item.id)).toEqual([keyed.notificationId]);
    });

    it.each(LANGUAGES)("%s prints the gateway's 401 problem on stderr for an unknown key and exits 1, without a stack trace", async (language) => {
      const sample = samplesFor("GET", "/v1/notifications", "api_key").find((item) => item.language === language)!;
      const { code, stdout, stderr } = await runSample(language, sample.code, { API_KEY: `${keyed.key.slice(0, -4)}zzzz` });
      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(stderr).toContain("The API refused:");
      expect(stderr).toContain('"status":401');
      expect(stderr).not.toMatch(STACK_TRACE);
    });
  });
});
