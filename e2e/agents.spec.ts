import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { auth, type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { ACCOUNTS, expect, test } from "./fixtures";

// An AI agent that knows only an MCP server's URL signs in through the portal in a real browser
// (issue 52), driven by the MCP SDK's own client and its OAuth flow: it discovers the
// authorization server from the 401, registers, sends the developer to the consent page,
// exchanges the code with PKCE, lists and calls tools, refreshes, and is revoked from
// Settings → Connected agents.
const ENV = "sso-qa";
const AGENT_NAME = `Browser test agent ${Date.now()}`;

/** What an MCP client keeps between its steps; a desktop agent would keep it on disk. */
class RememberingAgent implements OAuthClientProvider {
  constructor(readonly redirectUrl: string) {}
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: AGENT_NAME,
      redirect_uris: [this.redirectUrl],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
    };
  }
  state() {
    return "e2e-state";
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

test.setTimeout(120_000);

test("an MCP client knowing only the URL signs in through the consent page, calls a tool, refreshes, and is revoked", async ({ page, baseURL }) => {
  // The agent's own loopback listener, where the browser brings the code back.
  const callbacks: URL[] = [];
  const listener = createServer((request, response) => {
    callbacks.push(new URL(request.url ?? "/", "http://127.0.0.1"));
    response.setHeader("content-type", "text/plain").end("You can close this window.");
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const redirect = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`;
  const resource = new URL(`${baseURL}/mcp/${ENV}/notifications`);
  const agent = new RememberingAgent(redirect);
  const connect = async () => {
    const client = new Client({ name: "e2e-agent", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(resource, { authProvider: agent });
    await client.connect(transport);
    return client;
  };

  const first = new StreamableHTTPClientTransport(resource, { authProvider: agent });
  await expect(new Client({ name: "e2e-agent", version: "1.0.0" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(agent.client?.client_id).toMatch(/^agc_/);
  expect(agent.authorizationUrl?.href).toContain(`${baseURL}/oauth/${ENV}/authorize?`);
  expect(agent.authorizationUrl?.searchParams.get("code_challenge_method")).toBe("S256");
  expect(agent.authorizationUrl?.searchParams.get("resource")).toBe(resource.href);

  await page.goto(agent.authorizationUrl!.href);
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Email").fill(ACCOUNTS.developer.email);
  await page.getByLabel("Password").fill(ACCOUNTS.developer.password);
  await page.getByRole("main").getByRole("button", { name: "Sign in", exact: true }).click();

  await expect(page.getByRole("heading", { name: "Sign in an AI agent" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(AGENT_NAME)).toBeVisible();
  await expect(page.getByText("unverified", { exact: true })).toBeVisible();
  await expect(page.getByText("notifications:read")).toBeVisible();
  await expect(page.getByRole("radio").first()).toBeChecked();
  await page.getByRole("button", { name: "Approve" }).click();

  await expect(page.getByText("You can close this window.")).toBeVisible();
  listener.close();
  // The browser may ask the listener for a favicon too.
  const back = callbacks.find((url) => url.pathname === "/callback")!;
  expect(back.searchParams.get("state")).toBe("e2e-state");
  await first.finishAuth(back.searchParams.get("code")!);
  expect(agent.saved?.refresh_token).toMatch(/^grt_/);

  const client = await connect();
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("listNotifications");
    const listed = await client.callTool({ name: "listNotifications", arguments: {} });
    expect(listed.isError).toBeUndefined();
    expect(JSON.parse((listed.content as { text: string }[])[0]!.text)).toHaveProperty("items");
  } finally {
    await client.close();
  }

  const spent = agent.saved!;
  expect(await auth(agent, { serverUrl: resource })).toBe("AUTHORIZED");
  expect(agent.saved!.refresh_token).not.toBe(spent.refresh_token);
  const refreshed = await connect();
  await refreshed.close();

  await page.goto("/settings/agents");
  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: `Revoke ${AGENT_NAME}` }).click();
  await expect(page.getByText(AGENT_NAME)).toHaveCount(0);
  const refreshAgain = await fetch(`${baseURL}/gw/${ENV}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: agent.saved!.refresh_token!, client_id: agent.client!.client_id }),
  });
  expect(await refreshAgain.json()).toMatchObject({ error: "invalid_grant" });
  const call = () =>
    fetch(resource, {
      method: "POST",
      headers: { authorization: `Bearer ${agent.saved!.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    }).then((response) => response.status);
  await expect.poll(call, { timeout: 15_000 }).toBe(401);
});
