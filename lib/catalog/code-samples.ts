import type { Operation } from "./operations";

export type SampleLanguage = "curl" | "javascript" | "python";

export type CodeSample = { language: SampleLanguage; label: string; code: string };

/** One call through the gateway: where the token comes from, and the operation to call with it. */
export type SampleCall = { tokenEndpoint: string; serverUrl: string; operation: Pick<Operation, "method" | "path" | "bodyExample"> };

/** A URL as literal text and path parameters, each read from an environment variable of its own. */
type UrlPart = { text: string } | { variable: string };

export const SAMPLE_LANGUAGES: { language: SampleLanguage; label: string }[] = [
  { language: "curl", label: "curl" },
  { language: "javascript", label: "JavaScript (Node.js 20+)" },
  { language: "python", label: "Python 3" },
];

function urlParts(serverUrl: string, path: string): UrlPart[] {
  return `${serverUrl}${path}`
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

/** "A and B", "A, B and C": the environment variables a sample reads. */
function needs(parts: UrlPart[]): string {
  const names = ["CLIENT_ID", "CLIENT_SECRET", ...variablesOf(parts)];
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

function curlSample({ tokenEndpoint, serverUrl, operation }: SampleCall): string {
  const url = urlParts(serverUrl, operation.path)
    .map((part) => ("text" in part ? shellQuote(part.text) : `"$${part.variable}"`))
    .join("");
  const body =
    operation.bodyExample === undefined ? [] : [`  -H 'Content-Type: application/json'`, `  --data-raw ${shellQuote(JSON.stringify(operation.bodyExample))}`];
  const call = [`curl -sS --fail-with-body -X ${operation.method} ${url}`, `  -H "Authorization: Bearer $ACCESS_TOKEN"`, ...body].join(" \\\n");
  return [
    `# Needs ${needs(urlParts(serverUrl, operation.path))} in the environment.`,
    `TOKEN_RESPONSE=$(curl -sS -X POST ${shellQuote(tokenEndpoint)} \\`,
    `  -u "$CLIENT_ID:$CLIENT_SECRET" \\`,
    `  -d grant_type=client_credentials)`,
    `ACCESS_TOKEN=$(printf '%s' "$TOKEN_RESPONSE" | sed -n 's/.*"access_token":"\\([^"]*\\)".*/\\1/p')`,
    // Without a token the sample stops with the token endpoint's answer instead of calling the API anonymously.
    `if [ -z "$ACCESS_TOKEN" ]; then`,
    `  printf 'The token endpoint refused: %s\\n' "$TOKEN_RESPONSE" >&2`,
    `  exit 1`,
    `fi`,
    `if RESPONSE=$(${call}); then`,
    // printf, not echo: dash's echo would turn the backslashes of JSON escapes into control characters.
    `  printf '%s\\n' "$RESPONSE"`,
    `else`,
    `  printf 'The API refused: %s\\n' "$RESPONSE" >&2`,
    `  exit 1`,
    `fi`,
  ].join("\n");
}

function javascriptSample({ tokenEndpoint, serverUrl, operation }: SampleCall): string {
  const parts = urlParts(serverUrl, operation.path);
  const url = parts.map((part) => ("text" in part ? JSON.stringify(part.text) : `encodeURIComponent(process.env.${part.variable})`)).join(" + ");
  const required = ["CLIENT_ID", "CLIENT_SECRET", ...variablesOf(parts)].map((name) => JSON.stringify(name)).join(", ");
  const body =
    operation.bodyExample === undefined
      ? ""
      : `\n    headers: { authorization: \`Bearer \${access_token}\`, "content-type": "application/json" },\n    body: JSON.stringify(${JSON.stringify(operation.bodyExample)}),`;
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder belongs to the generated JavaScript, not to this file
  const headers = operation.bodyExample === undefined ? "\n    headers: { authorization: `Bearer ${access_token}` }," : "";
  return `// Runs with plain \`node\` 20+; needs ${needs(parts)} in the environment.
// Every failure ends in one line on stderr and exit code 1, without a stack trace.
function fail(message) {
  console.error(message);
  process.exit(1);
}

for (const name of [${required}]) {
  if (!process.env[name]) fail(\`Set \${name} in the environment\`);
}

async function main() {
  const basic = Buffer.from(\`\${process.env.CLIENT_ID}:\${process.env.CLIENT_SECRET}\`).toString("base64");
  const tokenResponse = await fetch(${JSON.stringify(tokenEndpoint)}, {
    method: "POST",
    headers: { authorization: \`Basic \${basic}\`, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials" }),
  });
  if (!tokenResponse.ok) fail(\`The token endpoint refused: \${await tokenResponse.text()}\`);
  const { access_token } = await tokenResponse.json();

  const response = await fetch(${url}, {
    method: ${JSON.stringify(operation.method)},${headers}${body}
  });
  if (!response.ok) fail(\`The API refused: \${await response.text()}\`);
  console.log(await response.text());
}

main().catch((error) => fail(error.cause?.message ?? error.message));`;
}

function pythonSample({ tokenEndpoint, serverUrl, operation }: SampleCall): string {
  const parts = urlParts(serverUrl, operation.path);
  const required = ["CLIENT_ID", "CLIENT_SECRET", ...variablesOf(parts)].map((name) => JSON.stringify(name)).join(", ");
  const url = parts.map((part) => ("text" in part ? JSON.stringify(part.text) : `urllib.parse.quote(os.environ["${part.variable}"], safe="")`)).join(" + ");
  const body = operation.bodyExample === undefined ? "" : `\n    data=${JSON.stringify(JSON.stringify(operation.bodyExample))}.encode(),`;
  const contentType = operation.bodyExample === undefined ? "" : `, "Content-Type": "application/json"`;
  return `# Python 3 standard library only; needs ${needs(parts)} in the environment.
# Every failure ends in one line on stderr and exit code 1, without a traceback.
import base64
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

for name in [${required}]:
    if not os.environ.get(name):
        sys.exit(f"Set {name} in the environment")


def answer(request, refuser):
    try:
        with urllib.request.urlopen(request) as response:
            return response.read().decode()
    except urllib.error.HTTPError as error:
        sys.exit(f"{refuser} refused: {error.read().decode()}")
    except urllib.error.URLError as error:
        sys.exit(f"{request.full_url}: {error.reason}")


basic = base64.b64encode(f"{os.environ['CLIENT_ID']}:{os.environ['CLIENT_SECRET']}".encode()).decode()
token_request = urllib.request.Request(
    ${JSON.stringify(tokenEndpoint)},
    data=urllib.parse.urlencode({"grant_type": "client_credentials"}).encode(),
    headers={"Authorization": f"Basic {basic}", "Content-Type": "application/x-www-form-urlencoded"},
)
access_token = json.loads(answer(token_request, "The token endpoint"))["access_token"]

request = urllib.request.Request(
    ${url},
    method=${JSON.stringify(operation.method)},${body}
    headers={"Authorization": f"Bearer {access_token}"${contentType}},
)
print(answer(request, "The API"))`;
}

const WRITERS: Record<SampleLanguage, (call: SampleCall) => string> = { curl: curlSample, javascript: javascriptSample, python: pythonSample };

/** The same call in every sample language: complete programs that read the secret from the environment, never inline it. */
export function codeSamples(call: SampleCall): CodeSample[] {
  return SAMPLE_LANGUAGES.map(({ language, label }) => ({ language, label, code: WRITERS[language](call) }));
}
