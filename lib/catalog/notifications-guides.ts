import "server-only";
import { PROBLEMS, type ProblemCode } from "../http/problem-types";
import { apiDocument } from "./api-document";
import type { CatalogApi } from "./catalog-api";
import { CREDENTIAL_TYPE_LABELS } from "./catalog-filter";
import { codeSamples } from "./code-samples";
import { apiServerUrl, tokenEndpointUrl } from "./environment-urls";
import type { Guide } from "./guides";
import { firstGetOperation, listOperations } from "./operations";
import { problemCodeFromType } from "./problem-advice";

/**
 * The problem types a call can meet: those the document's answers name (`…/problems/{code}` in
 * their examples, one per status), and every way a token or grant can fail, which the document
 * sums up under 401 and 403. In the order of the registry.
 */
function problemCodes(document: unknown): ProblemCode[] {
  const found = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        const code = key === "type" && typeof item === "string" ? problemCodeFromType(item) : undefined;
        if (code) found.add(code);
        else visit(item);
      }
    }
  };
  visit(document);
  return (Object.keys(PROBLEMS) as ProblemCode[]).filter((code) => found.has(code) || code.startsWith("token-") || code === "api-not-granted");
}

function environmentLine(api: CatalogApi, env: CatalogApi["environments"][number], publicUrl: string): string {
  const access = env.selfService ? "create credentials yourself under Settings" : "ask for credentials through Contact Us";
  return `- **${env.name}** (\`?env=${env.slug}\`): ${CREDENTIAL_TYPE_LABELS[env.credentialType]} credentials, ${access}. Token endpoint \`${tokenEndpointUrl(publicUrl, env.slug)}\`, server \`${apiServerUrl(publicUrl, api, env.slug)}\`.`;
}

function gettingStarted(api: CatalogApi, publicUrl: string): Guide {
  const env = api.environments[0]!;
  const document = apiDocument(api, env, publicUrl);
  const first = firstGetOperation(document);
  const curl =
    first &&
    codeSamples({ tokenEndpoint: tokenEndpointUrl(publicUrl, env.slug), serverUrl: apiServerUrl(publicUrl, api, env.slug), operation: first }).find(
      (sample) => sample.language === "curl",
    );
  return {
    slug: "getting-started",
    title: `Getting started with the ${api.name}`,
    markdown: [
      api.description,
      "",
      "## 1. Get credentials",
      "",
      "A credential (client ID and secret) belongs to one environment. The API is offered in:",
      "",
      ...api.environments.map((each) => environmentLine(api, each, publicUrl)),
      "",
      "## 2. Get a token",
      "",
      `Exchange the client ID and secret for an access token at the token endpoint of the same environment; see [Authentication](${publicUrl}/apis/${api.slug}/guides/authentication.md).`,
      "",
      "## 3. Call",
      "",
      `Send the token as \`Authorization: Bearer <token>\`. The operations:`,
      "",
      ...listOperations(document).map((operation) => `- \`${operation.method} ${operation.path}\`: ${operation.summary}`),
      ...(curl ? ["", `The first call in ${env.name}, with \`CLIENT_ID\` and \`CLIENT_SECRET\` set in the environment:`, "", "```sh", curl.code, "```"] : []),
      "",
      `The OpenAPI document: ${publicUrl}/apis/${api.slug}/openapi.json (add \`?env=\` for another environment).`,
    ].join("\n"),
  };
}

function authentication(api: CatalogApi, publicUrl: string): Guide {
  return {
    slug: "authentication",
    title: `Authentication for the ${api.name}`,
    markdown: [
      "Every call carries an access token (an RFC 9068 JWT) as `Authorization: Bearer <token>`. Tokens come from the OAuth 2.0 token endpoint of the environment you call (client credentials grant, RFC 6749 §4.4): send the client ID and secret with HTTP Basic authentication or in the form body.",
      "",
      "## Token endpoints",
      "",
      ...api.environments.map(
        (env) => `- **${env.name}**: \`POST ${tokenEndpointUrl(publicUrl, env.slug)}\` (${CREDENTIAL_TYPE_LABELS[env.credentialType]} credentials)`,
      ),
      "",
      "A token works only in the environment that issued it. Keep it until shortly before `expires_in` runs out, then fetch the next one.",
      "",
      "## Scopes",
      "",
      "Ask for none to get every scope your credential holds, or name the ones you need in `scope`:",
      "",
      ...api.scopes.map((scope) => `- \`${scope.name}\`: ${scope.description}`),
      "",
      "## Trying it in the portal",
      "",
      `Signed in, "Try it now" on the API page applies a 15-minute test token of your own credential to the Reference, minted from your session: no secret is typed or copied.`,
    ].join("\n"),
  };
}

function errors(api: CatalogApi, publicUrl: string): Guide {
  const codes = problemCodes(apiDocument(api, api.environments[0]!, publicUrl));
  return {
    slug: "errors",
    title: `Errors of the ${api.name}`,
    markdown: [
      "Every error is an `application/problem+json` document (RFC 9457) with `type`, `title`, `status`, `detail`, `instance`, and the `requestId` to quote when you report it. Its `type` links to a page that says what to do.",
      "",
      ...codes.flatMap((code) => {
        const problem = PROBLEMS[code];
        return [
          `## ${problem.status} ${problem.title}`,
          "",
          `Type [\`${code}\`](${publicUrl}/problems/${code}). ${problem.explanation}`,
          "",
          problem.advice,
          "",
        ];
      }),
    ].join("\n"),
  };
}

/** The built-in Notifications API's guides, written from what the portal knows: environments, token endpoints, scopes, operations and problem types. */
export function notificationsGuides(api: CatalogApi, publicUrl: string): Guide[] {
  if (api.environments.length === 0) return [];
  return [gettingStarted(api, publicUrl), authentication(api, publicUrl), errors(api, publicUrl)];
}
