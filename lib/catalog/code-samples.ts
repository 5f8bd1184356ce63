import { CLIENT_ASSERTION_TYPE } from "../oauth/assertion-rules";
import type { Operation } from "./operations";

export type SampleLanguage = "curl" | "javascript" | "python";

export type CodeSample = { language: SampleLanguage; label: string; code: string };

/**
 * How the sample authenticates: at the token endpoint with the client secret or with a JWT signed by
 * the client's private key, or at the API itself with an API key (for APIs whose authentication lists apiKey).
 */
export type SampleAuthentication = "client_secret" | "private_key_jwt" | "api_key";

/** One call through the gateway: where the token comes from, and the operation to call with it. */
export type SampleCall = {
  tokenEndpoint: string;
  serverUrl: string;
  operation: Pick<Operation, "method" | "path" | "bodyExample">;
  /** client_secret when left out */
  authentication?: SampleAuthentication;
  /**
   * The origin the URLs start with, when the sample is to read it from GATEHOUSE_URL with this as
   * the default (the README's samples, run against whichever port the reader chose); the portal
   * leaves it out and writes its own URLs in full.
   */
  gatehouseUrl?: string;
};

/** What a sample reads from the environment to authenticate; a private key is read from a file, never pasted into the environment. */
const CREDENTIAL_VARIABLES: Record<SampleAuthentication, string[]> = {
  client_secret: ["CLIENT_ID", "CLIENT_SECRET"],
  private_key_jwt: ["CLIENT_ID", "PRIVATE_KEY_FILE"],
  api_key: ["API_KEY"],
};

/** A URL as literal text, path parameters each read from an environment variable of its own, and the origin read from GATEHOUSE_URL. */
type UrlPart = { text: string } | { variable: string } | { origin: string };

export const SAMPLE_LANGUAGES: { language: SampleLanguage; label: string }[] = [
  { language: "curl", label: "curl" },
  { language: "javascript", label: "JavaScript (Node.js 20+)" },
  { language: "python", label: "Python 3" },
];

function urlParts(serverUrl: string, path: string, gatehouseUrl?: string): UrlPart[] {
  const url = `${serverUrl}${path}`;
  if (gatehouseUrl && url.startsWith(gatehouseUrl)) return [{ origin: gatehouseUrl }, ...urlParts(url.slice(gatehouseUrl.length), "")];
  return url
    .split(/(\{[^}]+\})/)
    .filter((part) => part !== "")
    .map((part) =>
      part.startsWith("{")
        ? {
            variable: part
              .slice(1, -1)
              .replace(/[^A-Za-z0-9]/g, "_")
              .toUpperCase(),
          }
        : { text: part },
    );
}

function variablesOf(parts: UrlPart[]): string[] {
  return parts.flatMap((part) => ("variable" in part ? [part.variable] : []));
}

/** Every environment variable a sample reads, its credentials first. */
function requiredVariables(parts: UrlPart[], authentication: SampleAuthentication): string[] {
  return [...CREDENTIAL_VARIABLES[authentication], ...variablesOf(parts)];
}

/** "A and B in the environment", "A, B and C …": the environment variables a sample reads. */
function needs(parts: UrlPart[], authentication: SampleAuthentication, gatehouseUrl: string | undefined): string {
  const names = requiredVariables(parts, authentication);
  const list = `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  const variables = authentication === "private_key_jwt" ? `${list} (your RSA private key, PEM, for RS256)` : list;
  return `${variables} in the environment${gatehouseUrl ? `, and GATEHOUSE_URL unless Gatehouse is at ${gatehouseUrl}` : ""}`;
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** Text as it stands inside a double-quoted shell string. */
function doubleQuoted(value: string): string {
  return value.replace(/["$`\\]/g, "\\$&");
}

const variableName = (part: { variable: string } | { origin: string }) => ("variable" in part ? part.variable : "GATEHOUSE_URL");

/** A URL as one shell word: its text single-quoted, or, when it starts with GATEHOUSE_URL, one double-quoted string that reads. */
function shellUrl(parts: UrlPart[]): string {
  if (parts.some((part) => "origin" in part)) {
    return `"${parts.map((part) => ("text" in part ? doubleQuoted(part.text) : `\${${variableName(part)}}`)).join("")}"`;
  }
  return parts.map((part) => ("text" in part ? shellQuote(part.text) : `"$${variableName(part)}"`)).join("");
}

/** The shell lines that stop the sample when a variable it needs is unset, then default GATEHOUSE_URL. */
function shellPreamble(required: string[], gatehouseUrl: string | undefined): string[] {
  const checks = required.map((name) => `[ -n "$${name}" ] || { echo 'Set ${name} in the environment' >&2; exit 1; }`);
  return gatehouseUrl ? [...checks, `GATEHOUSE_URL="\${GATEHOUSE_URL:-${doubleQuoted(gatehouseUrl)}}"`] : checks;
}

/**
 * The shell lines that set TOKEN_RESPONSE, or stop the sample when curl got no answer at all
 * (connection refused, unknown host), which curl has already explained on stderr.
 */
function curlTokenRequest(tokenEndpoint: string, authentication: Exclude<SampleAuthentication, "api_key">): string[] {
  if (authentication === "client_secret") {
    return [`TOKEN_RESPONSE=$(curl -sS -X POST ${tokenEndpoint} \\`, `  -u "$CLIENT_ID:$CLIENT_SECRET" \\`, `  -d grant_type=client_credentials) || exit 1`];
  }
  return [
    `b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }`,
    `NOW=$(date +%s)`,
    `HEADER=$(printf '{"alg":"RS256","typ":"JWT"}' | b64url)`,
    `CLAIMS=$(printf '{"iss":"%s","sub":"%s","aud":"%s","jti":"%s","iat":%s,"exp":%s}' \\`,
    `  "$CLIENT_ID" "$CLIENT_ID" ${tokenEndpoint} "$(openssl rand -hex 16)" "$NOW" "$((NOW + 60))" | b64url)`,
    `SIGNATURE=$(printf '%s.%s' "$HEADER" "$CLAIMS" | openssl dgst -sha256 -sign "$PRIVATE_KEY_FILE" | b64url) || exit 1`,
    `TOKEN_RESPONSE=$(curl -sS -X POST ${tokenEndpoint} \\`,
    `  -d grant_type=client_credentials \\`,
    `  -d client_assertion_type=${CLIENT_ASSERTION_TYPE} \\`,
    `  -d "client_assertion=$HEADER.$CLAIMS.$SIGNATURE") || exit 1`,
  ];
}

function curlSample({ tokenEndpoint, serverUrl, operation, authentication = "client_secret", gatehouseUrl }: SampleCall): string {
  const parts = urlParts(serverUrl, operation.path, gatehouseUrl);
  const url = shellUrl(parts);
  const body =
    operation.bodyExample === undefined ? [] : [`  -H 'Content-Type: application/json'`, `  --data-raw ${shellQuote(JSON.stringify(operation.bodyExample))}`];
  const credential = authentication === "api_key" ? `  -H "X-API-Key: $API_KEY"` : `  -H "Authorization: Bearer $ACCESS_TOKEN"`;
  const call = [`curl -sS --fail-with-body -X ${operation.method} ${url}`, credential, ...body].join(" \\\n");
  const token =
    authentication === "api_key"
      ? []
      : [
          ...curlTokenRequest(shellUrl(urlParts(tokenEndpoint, "", gatehouseUrl)), authentication),
          `ACCESS_TOKEN=$(printf '%s' "$TOKEN_RESPONSE" | sed -n 's/.*"access_token":"\\([^"]*\\)".*/\\1/p')`,
          // Without a token the sample stops with the token endpoint's answer instead of calling the API anonymously.
          `if [ -z "$ACCESS_TOKEN" ]; then`,
          `  printf 'The token endpoint refused: %s\\n' "$TOKEN_RESPONSE" >&2`,
          `  exit 1`,
          `fi`,
        ];
  return [
    `# Needs ${needs(parts, authentication, gatehouseUrl)}.`,
    ...shellPreamble(requiredVariables(parts, authentication), gatehouseUrl),
    ...token,
    `if RESPONSE=$(${call}); then`,
    // printf, not echo: dash's echo would turn the backslashes of JSON escapes into control characters.
    `  printf '%s\\n' "$RESPONSE"`,
    `else`,
    `  printf 'The API refused: %s\\n' "$RESPONSE" >&2`,
    `  exit 1`,
    `fi`,
  ].join("\n");
}

/** A URL as a JavaScript expression. */
function javascriptUrl(parts: UrlPart[]): string {
  return parts
    .map((part) => ("text" in part ? JSON.stringify(part.text) : "variable" in part ? `encodeURIComponent(process.env.${part.variable})` : "GATEHOUSE_URL"))
    .join(" + ");
}

/** The lines that post to the token endpoint, as `tokenResponse`. */
function javascriptTokenRequest(tokenEndpoint: string, authentication: Exclude<SampleAuthentication, "api_key">): string {
  if (authentication === "client_secret") {
    return `  const basic = Buffer.from(\`\${process.env.CLIENT_ID}:\${process.env.CLIENT_SECRET}\`).toString("base64");
  const tokenResponse = await fetch(${tokenEndpoint}, {
    method: "POST",
    headers: { authorization: \`Basic \${basic}\`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials" }),
  });`;
  }
  return `  // private_key_jwt (RFC 7523): a JWT for this one request, signed with your private key.
  const now = Math.floor(Date.now() / 1000);
  const part = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const claims = { iss: process.env.CLIENT_ID, sub: process.env.CLIENT_ID, aud: ${tokenEndpoint}, jti: randomUUID(), iat: now, exp: now + 60 };
  const unsigned = \`\${part({ alg: "RS256", typ: "JWT" })}.\${part(claims)}\`;
  const key = createPrivateKey(readFileSync(process.env.PRIVATE_KEY_FILE));
  const assertion = \`\${unsigned}.\${sign("sha256", Buffer.from(unsigned), key).toString("base64url")}\`;
  const tokenResponse = await fetch(${tokenEndpoint}, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_assertion_type: ${JSON.stringify(CLIENT_ASSERTION_TYPE)}, client_assertion: assertion }),
  });`;
}

function javascriptSample({ tokenEndpoint, serverUrl, operation, authentication = "client_secret", gatehouseUrl }: SampleCall): string {
  const parts = urlParts(serverUrl, operation.path, gatehouseUrl);
  const url = javascriptUrl(parts);
  const origin = gatehouseUrl ? `\nconst GATEHOUSE_URL = process.env.GATEHOUSE_URL || ${JSON.stringify(gatehouseUrl)};\n` : "";
  const required = requiredVariables(parts, authentication)
    .map((name) => JSON.stringify(name))
    .join(", ");
  const imports =
    authentication === "private_key_jwt"
      ? `const { createPrivateKey, randomUUID, sign } = require("node:crypto");\nconst { readFileSync } = require("node:fs");\n\n`
      : "";
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder belongs to the generated JavaScript, not to this file
  const credential = authentication === "api_key" ? `"x-api-key": process.env.API_KEY` : "authorization: `Bearer ${access_token}`";
  const body =
    operation.bodyExample === undefined
      ? ""
      : `\n    headers: { ${credential}, "content-type": "application/json" },\n    body: JSON.stringify(${JSON.stringify(operation.bodyExample)}),`;
  const headers = operation.bodyExample === undefined ? `\n    headers: { ${credential} },` : "";
  const token =
    authentication === "api_key"
      ? ""
      : `${javascriptTokenRequest(javascriptUrl(urlParts(tokenEndpoint, "", gatehouseUrl)), authentication)}
  if (!tokenResponse.ok) fail(\`The token endpoint refused: \${await tokenResponse.text()}\`);
  const { access_token } = await tokenResponse.json();

`;
  return `// Runs with plain \`node\` 20+; needs ${needs(parts, authentication, gatehouseUrl)}.
// Every failure ends in one line on stderr and exit code 1, without a stack trace.
${imports}function fail(message) {
  console.error(message);
  process.exit(1);
}

for (const name of [${required}]) {
  if (!process.env[name]) fail(\`Set \${name} in the environment\`);
}
${origin}
async function main() {
${token}  const response = await fetch(${url}, {
    method: ${JSON.stringify(operation.method)},${headers}${body}
  });
  if (!response.ok) fail(\`The API refused: \${await response.text()}\`);
  console.log(await response.text());
}

main().catch((error) => fail(error.cause?.message ?? error.message));`;
}

/** A URL as a Python expression. */
function pythonUrl(parts: UrlPart[]): string {
  return parts
    .map((part) =>
      "text" in part ? JSON.stringify(part.text) : "variable" in part ? `urllib.parse.quote(os.environ["${part.variable}"], safe="")` : "GATEHOUSE_URL",
    )
    .join(" + ");
}

/** The lines that build `token_request`. */
function pythonTokenRequest(tokenEndpoint: string, authentication: Exclude<SampleAuthentication, "api_key">): string {
  if (authentication === "client_secret") {
    return `basic = base64.b64encode(f"{os.environ['CLIENT_ID']}:{os.environ['CLIENT_SECRET']}".encode()).decode()
token_request = urllib.request.Request(
    ${tokenEndpoint},
    data=urllib.parse.urlencode({"grant_type": "client_credentials"}).encode(),
    headers={"Authorization": f"Basic {basic}", "Content-Type": "application/x-www-form-urlencoded"},
)`;
  }
  return `# private_key_jwt (RFC 7523): a JWT for this one request, signed with your private key by openssl.
def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


now = int(time.time())
claims = {"iss": os.environ["CLIENT_ID"], "sub": os.environ["CLIENT_ID"], "aud": ${tokenEndpoint}, "jti": uuid.uuid4().hex, "iat": now, "exp": now + 60}
unsigned = b64url(json.dumps({"alg": "RS256", "typ": "JWT"}).encode()) + "." + b64url(json.dumps(claims).encode())
signed = subprocess.run(["openssl", "dgst", "-sha256", "-sign", os.environ["PRIVATE_KEY_FILE"]], input=unsigned.encode(), capture_output=True)
if signed.returncode != 0:
    sys.exit(f"openssl could not sign with PRIVATE_KEY_FILE: {signed.stderr.decode().strip()}")
token_request = urllib.request.Request(
    ${tokenEndpoint},
    data=urllib.parse.urlencode(
        {"grant_type": "client_credentials", "client_assertion_type": ${JSON.stringify(CLIENT_ASSERTION_TYPE)}, "client_assertion": f"{unsigned}.{b64url(signed.stdout)}"}
    ).encode(),
    headers={"Content-Type": "application/x-www-form-urlencoded"},
)`;
}

function pythonSample({ tokenEndpoint, serverUrl, operation, authentication = "client_secret", gatehouseUrl }: SampleCall): string {
  const parts = urlParts(serverUrl, operation.path, gatehouseUrl);
  const required = requiredVariables(parts, authentication)
    .map((name) => JSON.stringify(name))
    .join(", ");
  const keyImports = authentication === "private_key_jwt" ? "\nimport subprocess" : "";
  const keyModules = authentication === "private_key_jwt" ? "\nimport time" : "";
  const uuidImport = authentication === "private_key_jwt" ? "\nimport uuid" : "";
  const url = pythonUrl(parts);
  const origin = gatehouseUrl ? `\nGATEHOUSE_URL = os.environ.get("GATEHOUSE_URL") or ${JSON.stringify(gatehouseUrl)}\n` : "";
  const body = operation.bodyExample === undefined ? "" : `\n    data=${JSON.stringify(JSON.stringify(operation.bodyExample))}.encode(),`;
  const contentType = operation.bodyExample === undefined ? "" : `, "Content-Type": "application/json"`;
  const credential = authentication === "api_key" ? `"X-API-Key": os.environ["API_KEY"]` : `"Authorization": f"Bearer {access_token}"`;
  const token =
    authentication === "api_key"
      ? ""
      : `${pythonTokenRequest(pythonUrl(urlParts(tokenEndpoint, "", gatehouseUrl)), authentication)}
access_token = json.loads(answer(token_request, "The token endpoint"))["access_token"]

`;
  return `# Python 3 standard library only; needs ${needs(parts, authentication, gatehouseUrl)}.
# Every failure ends in one line on stderr and exit code 1, without a traceback.
${authentication === "api_key" ? "" : "import base64\nimport json\n"}import os${keyImports}
import sys${keyModules}
import urllib.error
import urllib.parse
import urllib.request${uuidImport}

for name in [${required}]:
    if not os.environ.get(name):
        sys.exit(f"Set {name} in the environment")
${origin}

def answer(request, refuser):
    try:
        with urllib.request.urlopen(request) as response:
            return response.read().decode()
    except urllib.error.HTTPError as error:
        sys.exit(f"{refuser} refused: {error.read().decode()}")
    except urllib.error.URLError as error:
        sys.exit(f"{request.full_url}: {error.reason}")


${token}request = urllib.request.Request(
    ${url},
    method=${JSON.stringify(operation.method)},${body}
    headers={${credential}${contentType}},
)
print(answer(request, "The API"))`;
}

const WRITERS: Record<SampleLanguage, (call: SampleCall) => string> = { curl: curlSample, javascript: javascriptSample, python: pythonSample };

/** The same call in every sample language: complete programs that read the secret from the environment, never inline it. */
export function codeSamples(call: SampleCall): CodeSample[] {
  return SAMPLE_LANGUAGES.map(({ language, label }) => ({ language, label, code: WRITERS[language](call) }));
}
