import type { SampleCall } from "./code-samples";

/**
 * A complete Node.js program for a credential that requires DPoP (RFC 9449): it makes an ES256
 * key pair, gets a token bound to it with a proof, and calls the operation with `DPoP` and a new
 * proof, with node:crypto alone. Path parameters are left as the document writes them.
 */
export function dpopSample({ tokenEndpoint, serverUrl, operation }: Pick<SampleCall, "tokenEndpoint" | "serverUrl" | "operation">): string {
  const url = `${serverUrl}${operation.path}`;
  const contentType = operation.bodyExample === undefined ? "" : `"content-type": "application/json", `;
  const body = operation.bodyExample === undefined ? "" : `\n    body: JSON.stringify(${JSON.stringify(operation.bodyExample)}),`;
  return `// Runs with plain \`node\` 20+; needs CLIENT_ID and CLIENT_SECRET in the environment.
// The credential requires DPoP: the token works only with proofs signed by this program's key.
const { createHash, generateKeyPairSync, randomUUID, sign } = require("node:crypto");

for (const name of ["CLIENT_ID", "CLIENT_SECRET"]) {
  if (!process.env[name]) throw new Error(\`Set \${name} in the environment\`);
}

const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const part = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A DPoP proof (RFC 9449 §4.2) for one request: method, URL without query, and the token's hash when calling an API. */
function proof(method, url, accessToken) {
  const claims = { jti: randomUUID(), htm: method, htu: url.split("?")[0], iat: Math.floor(Date.now() / 1000) };
  if (accessToken) claims.ath = createHash("sha256").update(accessToken).digest("base64url");
  const unsigned = \`\${part({ typ: "dpop+jwt", alg: "ES256", jwk: publicKey.export({ format: "jwk" }) })}.\${part(claims)}\`;
  return \`\${unsigned}.\${sign("sha256", Buffer.from(unsigned), { key: privateKey, dsaEncoding: "ieee-p1363" }).toString("base64url")}\`;
}

async function main() {
  const tokenEndpoint = ${JSON.stringify(tokenEndpoint)};
  const basic = Buffer.from(\`\${process.env.CLIENT_ID}:\${process.env.CLIENT_SECRET}\`).toString("base64");
  const tokenResponse = await fetch(tokenEndpoint, {
    method: "POST",
    headers: { authorization: \`Basic \${basic}\`, "content-type": "application/x-www-form-urlencoded", dpop: proof("POST", tokenEndpoint) },
    body: new URLSearchParams({ grant_type: "client_credentials" }),
  });
  if (!tokenResponse.ok) throw new Error(\`The token endpoint refused: \${await tokenResponse.text()}\`);
  const { access_token, token_type } = await tokenResponse.json(); // token_type is "DPoP"

  const url = ${JSON.stringify(url)};
  const response = await fetch(url, {
    method: ${JSON.stringify(operation.method)},
    headers: { ${contentType}authorization: \`\${token_type} \${access_token}\`, dpop: proof(${JSON.stringify(operation.method)}, url, access_token) },${body}
  });
  console.log(response.status, await response.text());
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
`;
}
