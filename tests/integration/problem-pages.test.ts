import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db";
import { PROBLEMS, type ProblemCode } from "../../lib/http/problem-types";
import { startServer, type TestServer } from "../support/server";
import { accessToken, newCredential, openDb } from "./gateway-support";

let server: TestServer;
let db: Db;
let readToken: string;

beforeAll(async () => {
  server = await startServer();
  db = openDb(server);
  readToken = await accessToken(server, "sso-qa", await newCredential(db, "sso-qa"), "notifications:read");
});

afterAll(async () => {
  await db?.$disconnect();
  await server?.stop();
});

const LIST = "/gw/sso-qa/notifications/v1/notifications";

/** The text of the page's heading, with the entities React writes decoded. */
async function pageTitle(code: string): Promise<string | undefined> {
  const response = await fetch(`${server.url}/problems/${code}`);
  expect(response.status, code).toBe(200);
  const heading = /<h1[^>]*>(.*?)<\/h1>/s.exec(await response.text())?.[1];
  return heading
    ?.replace(/<!-- -->/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

describe("problem type pages", () => {
  it("has a page for every registered code, headed by its title", async () => {
    for (const code of Object.keys(PROBLEMS) as ProblemCode[]) {
      expect(await pageTitle(code), code).toBe(PROBLEMS[code].title);
    }
  });

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  it.each<[ProblemCode, string, () => RequestInit]>([
    ["token-missing", LIST, () => ({})],
    ["token-malformed", LIST, () => ({ headers: { authorization: "Basic abc" } })],
    ["token-invalid", LIST, () => ({ headers: bearer("eyJhbGciOiJSUzI1NiJ9.e30.c2ln") })],
    ["not-found", "/gw/nowhere/notifications/v1/notifications", () => ({})],
    ["validation-failed", `${LIST}?limit=0`, () => ({ headers: bearer(readToken) })],
    ["scope-missing", `${LIST}/ntf_x`, () => ({ method: "PUT", headers: { ...bearer(readToken), "content-type": "application/json" }, body: "{}" })],
    ["method-not-allowed", LIST, () => ({ method: "DELETE", headers: bearer(readToken) })],
    ["unauthenticated", "/api/portal/credentials", () => ({})],
  ])("answers %s with the title of the page its type names", async (code, path, init) => {
    const response = await fetch(`${server.url}${path}`, init());
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const body = (await response.json()) as { type: string; title: string; status: number };
    expect(body).toMatchObject({ type: `${server.url}/problems/${code}`, status: PROBLEMS[code].status });
    expect(body.title).toBe(await pageTitle(code));
  });
});
