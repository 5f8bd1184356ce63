import { createHash, randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ACCOUNTS, expect, test } from "./fixtures";

// An AI agent signs in through the portal's consent page in a real browser (issue 52):
// it registers over HTTP, the developer signs in and approves, and the code it gets back
// becomes a token that lists the MCP server's tools.
const ENV = "sso-qa";
const REDIRECT = "http://127.0.0.1:8976/callback";

test.setTimeout(120_000);

test("the developer signs an agent in on the consent page, and the agent's code becomes a token for its MCP server", async ({ page, baseURL }) => {
  const registered = await fetch(`${baseURL}/gw/${ENV}/oauth2/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Browser test agent", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
  });
  expect(registered.status).toBe(201);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const resource = `${baseURL}/mcp/${ENV}/notifications`;
  const authorize = new URL(`${baseURL}/oauth/${ENV}/authorize`);
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    resource,
    state: "e2e-state",
  })) {
    authorize.searchParams.set(name, value);
  }
  // Nothing listens on the agent's loopback port here: the browser's arrival there is answered in place.
  await page.route(`${REDIRECT}**`, (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "You can close this window." }));

  await page.goto(authorize.href);
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Email").fill(ACCOUNTS.developer.email);
  await page.getByLabel("Password").fill(ACCOUNTS.developer.password);
  await page.getByRole("main").getByRole("button", { name: "Sign in", exact: true }).click();

  await expect(page.getByRole("heading", { name: "Sign in an AI agent" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("Browser test agent")).toBeVisible();
  await expect(page.getByText("unverified", { exact: true })).toBeVisible();
  await expect(page.getByText("notifications:read")).toBeVisible();
  await expect(page.getByRole("radio").first()).toBeChecked();
  await page.getByRole("button", { name: "Approve" }).click();

  await page.waitForURL(/^http:\/\/127\.0\.0\.1:8976\/callback\?/);
  const back = new URL(page.url());
  expect(back.searchParams.get("state")).toBe("e2e-state");
  const code = back.searchParams.get("code");
  expect(code).toBeTruthy();

  const exchanged = await fetch(`${baseURL}/gw/${ENV}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: code!,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
      resource,
    }),
  });
  expect(exchanged.status).toBe(200);
  const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string };
  expect(tokens.refresh_token).toMatch(/^grt_/);

  const agent = new Client({ name: "e2e-agent", version: "1.0.0" });
  await agent.connect(new StreamableHTTPClientTransport(new URL(resource), { requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } } }));
  try {
    const { tools } = await agent.listTools();
    expect(tools.map((tool) => tool.name)).toContain("listNotifications");
  } finally {
    await agent.close();
  }
});
