import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

export const ISSUER_AUDIENCE = "https://gatehouse.example.test";

export type Issuer = { url: string; sign(claims?: Record<string, unknown>): Promise<string>; server: Server; requests: string[] };

/** An OIDC issuer as a CI platform runs one: discovery, a JWKS, and ID tokens signed with its key. */
export async function startIssuer(): Promise<Issuer> {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: "issuer-key", alg: "RS256", use: "sig" };
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? "");
    response.setHeader("content-type", "application/json");
    if (request.url === "/.well-known/openid-configuration") response.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/keys` }));
    else if (request.url === "/keys") response.end(JSON.stringify({ keys: [jwk] }));
    else response.writeHead(404).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sign = (claims: Record<string, unknown> = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      iss: url,
      aud: ISSUER_AUDIENCE,
      sub: "repo:acme/billing:ref:refs/heads/main",
      jti: randomUUID(),
      iat: now,
      nbf: now,
      exp: now + 300,
      ...claims,
    })
      .setProtectedHeader({ alg: "RS256", kid: "issuer-key" })
      .sign(privateKey);
  };
  return { url, sign, server, requests };
}
