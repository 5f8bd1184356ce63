import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { expect, seriousAccessibilityViolations, test } from "./fixtures";

test("a developer creates a credential with their own public key, gets no secret, and the key's assertions get tokens", async ({ signInAs, baseURL }) => {
  const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: "e2e-key", alg: "ES256", use: "sig" }] };
  const developer = await signInAs("developer");
  await developer.goto("/settings/credentials");
  await developer.getByLabel("Application", { exact: true }).fill(`E2E Keys ${Date.now()}`);
  await developer.getByLabel("Environment", { exact: true }).selectOption({ label: "Global SSO QA" });
  await developer.getByText("Authenticate with your own keys instead of a secret (private_key_jwt)").click();

  await developer.getByLabel("Public keys (JWKS JSON)").fill(JSON.stringify({ keys: [{ kty: "oct", k: "c2VjcmV0" }] }));
  await developer.getByRole("button", { name: "Create credential" }).click();
  await expect(developer.getByText("keys.0.kty: must be RSA, EC or OKP")).toBeVisible();

  await developer.getByLabel("Public keys (JWKS JSON)").fill(JSON.stringify(jwks));
  await developer.getByRole("button", { name: "Create credential" }).click();
  const status = developer.getByRole("status").filter({ hasText: "It has no secret" });
  await expect(status).toBeVisible();
  await expect(developer.getByRole("region", { name: "New client secret" })).toHaveCount(0);
  const clientId = (await status.locator("code").textContent())!.trim();
  expect(clientId).toMatch(/^gci_/);
  const listed = developer.getByRole("listitem").filter({ hasText: clientId });
  await expect(listed.getByText("None: private_key_jwt with keys registered here (e2e-key)")).toBeVisible();
  await expect(listed.getByRole("button", { name: "Revoke" })).toBeVisible();
  await expect(listed.getByRole("button", { name: /secret/ })).toHaveCount(0);

  const tokenEndpoint = `${baseURL}/gw/sso-qa/oauth2/token`;
  const now = Math.floor(Date.now() / 1000);
  const assertion = await new SignJWT({ iss: clientId, sub: clientId, aud: tokenEndpoint, jti: randomUUID(), exp: now + 60 })
    .setProtectedHeader({ alg: "ES256", kid: "e2e-key" })
    .sign(privateKey);
  const response = await developer.request.post(tokenEndpoint, {
    form: { grant_type: "client_credentials", client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer", client_assertion: assertion },
  });
  expect(response.status()).toBe(200);

  await developer.goto("/apis/notifications?tab=credentials&env=sso-qa");
  await expect(developer.getByRole("figure").filter({ hasText: "Python 3: key-signed first call" })).toContainText("PRIVATE_KEY_FILE");
});

test("a developer creates a credential trusting an OIDC issuer: no secret, and the list names the trust", async ({ signInAs }) => {
  const developer = await signInAs("developer");
  await developer.goto("/settings/credentials");
  await developer.getByLabel("Application", { exact: true }).fill(`E2E Federated ${Date.now()}`);
  await developer.getByLabel("Environment", { exact: true }).selectOption({ label: "Global SSO QA" });
  await developer.getByText("Trust an external OIDC issuer instead of a secret (workload identity federation)").click();
  await expect(developer.getByText("The credential then has no secret at all")).toBeVisible();

  // The e2e server keeps OUTBOUND_ALLOW_PRIVATE off: a loopback issuer is refused, naming the field.
  await developer.getByLabel("Issuer URL (https)").fill("https://localhost/issuer");
  await developer.getByLabel("Required audience").fill("https://gatehouse.e2e.example");
  await developer.getByLabel("Subject, exact or with * for any characters").fill("repo:acme/billing:ref:refs/heads/*");
  await developer.getByRole("button", { name: "Create credential" }).click();
  await expect(developer.getByText(/which is not a public address/)).toBeVisible();

  const issuer = "https://93.184.215.14/e2e-issuer";
  await developer.getByLabel("Issuer URL (https)").fill(issuer);
  await developer.getByRole("button", { name: "Create credential" }).click();
  const status = developer.getByRole("status").filter({ hasText: "It has no secret" });
  await expect(status).toContainText("send your platform's ID token as the client assertion");
  await expect(developer.getByRole("region", { name: "New client secret" })).toHaveCount(0);
  const clientId = (await status.locator("code").textContent())!.trim();
  expect(clientId).toMatch(/^gci_/);
  const listed = developer.getByRole("listitem").filter({ hasText: clientId });
  await expect(listed.getByText(`None: ID tokens of ${issuer} for https://gatehouse.e2e.example, subject repo:acme/billing:ref:refs/heads/*`)).toBeVisible();
  await expect(listed.getByRole("button", { name: "Revoke" })).toBeVisible();
  await expect(listed.getByRole("button", { name: /secret/ })).toHaveCount(0);
  expect(await seriousAccessibilityViolations(developer)).toEqual([]);
});
