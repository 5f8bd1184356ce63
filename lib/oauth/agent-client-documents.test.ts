import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentRowIdOf, createAgentClientDocuments, isClientDocumentUrl, MAX_CLIENT_DOCUMENT_BYTES } from "./agent-client-documents";

let server: Server;
let base: string;
const fetched: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? "";
    fetched.push(path);
    const self = `${base}${path}`;
    const document = { client_id: self, client_name: "Doc agent", redirect_uris: ["http://127.0.0.1/callback"] };
    if (path === "/cached") response.setHeader("cache-control", "max-age=600");
    if (path === "/uncached") response.setHeader("cache-control", "no-store");
    if (path === "/not-json") response.end("<html>");
    else if (path === "/huge") response.end(JSON.stringify({ ...document, client_name: "x".repeat(MAX_CLIENT_DOCUMENT_BYTES) }));
    else if (path === "/other") response.end(JSON.stringify({ ...document, client_id: `${base}/elsewhere` }));
    else if (path === "/secret") response.end(JSON.stringify({ ...document, token_endpoint_auth_method: "client_secret_basic" }));
    else response.end(JSON.stringify(document));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("client ID metadata documents", () => {
  it("takes as a document's URL only an https URL with a path, http only with the private allowance", () => {
    expect(isClientDocumentUrl("https://agent.example/client.json", false)).toBe(true);
    expect(isClientDocumentUrl("http://agent.example/client.json", false)).toBe(false);
    expect(isClientDocumentUrl("http://127.0.0.1:9/client.json", true)).toBe(true);
    for (const refused of [
      "https://agent.example",
      "https://agent.example/",
      "https://user:pw@agent.example/client.json",
      "https://agent.example/client.json#x",
      "https://agent.example/a/../client.json",
      "agc_123",
      "ftp://agent.example/client.json",
    ]) {
      expect(isClientDocumentUrl(refused, false), refused).toBe(false);
    }
  });

  it("keys a document's agent by its URL and environment, and a registered agent by its id", () => {
    expect(agentRowIdOf("agc_123", "env_1")).toBe("agc_123");
    expect(agentRowIdOf("https://agent.example/client.json", "env_1")).toMatch(/^agm_[A-Za-z0-9_-]{43}$/);
    expect(agentRowIdOf("https://agent.example/client.json", "env_1")).not.toBe(agentRowIdOf("https://agent.example/client.json", "env_2"));
  });

  it("reads a document naming its own URL, and refuses one that names another, is too large, is not JSON or is a confidential client", async () => {
    const documents = createAgentClientDocuments({ policy: { allowPrivate: true } });
    expect(await documents(`${base}/agent`)).toEqual({ ok: true, name: "Doc agent", host: new URL(base).host, redirectUris: ["http://127.0.0.1/callback"] });
    expect(await documents(`${base}/other`)).toMatchObject({ ok: false, detail: expect.stringContaining("another client_id") });
    expect(await documents(`${base}/huge`)).toMatchObject({ ok: false, detail: expect.stringContaining(`more than ${MAX_CLIENT_DOCUMENT_BYTES} bytes`) });
    expect(await documents(`${base}/not-json`)).toMatchObject({ ok: false, detail: expect.stringContaining("not JSON") });
    expect(await documents(`${base}/secret`)).toMatchObject({ ok: false, detail: expect.stringContaining("token_endpoint_auth_method") });
  });

  it("refuses a private address without the allowance, before connecting", async () => {
    const documents = createAgentClientDocuments({ policy: { allowPrivate: false } });
    const before = fetched.length;
    const refused = await documents(`https://127.0.0.1:${new URL(base).port}/agent`);
    expect(refused).toMatchObject({ ok: false, detail: expect.stringContaining("not a public address") });
    expect(fetched.length).toBe(before);
  });

  it("keeps a document as its Cache-Control allows, within a bounded number of entries", async () => {
    const documents = createAgentClientDocuments({ policy: { allowPrivate: true }, maxEntries: 2 });
    const count = (path: string) => fetched.filter((each) => each === path).length;
    await documents(`${base}/cached`);
    await documents(`${base}/cached`);
    expect(count("/cached")).toBe(1);
    await documents(`${base}/uncached`);
    await documents(`${base}/uncached`);
    expect(count("/uncached")).toBe(2);
    await documents(`${base}/third`);
    await documents(`${base}/cached`);
    expect(count("/cached")).toBe(2);
  });
});
