import type { CatalogApi } from "./catalog-api";
import { gatewayUrl, tokenEndpointUrl } from "./environment-urls";
import { type Guide, guideHref } from "./guides";

type ListedApi = Pick<CatalogApi, "slug" | "name" | "summary" | "isPublic" | "environments" | "mcpEnabled"> & { guides: Pick<Guide, "slug" | "title">[] };

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/** Link text that cannot close its link early. */
const linkText = (text: string) => oneLine(text).replace(/[[\]\\]/g, "\\$&");

function apiLine(api: ListedApi, publicUrl: string): string {
  const access = api.isPublic ? "public" : "needs a bearer token";
  return `- [${linkText(api.name)}](${publicUrl}/apis/${api.slug}/openapi.json): ${oneLine(api.summary)} (OpenAPI document; ${access})`;
}

/** `{PUBLIC_URL}/mcp/{env}/{api}`: the API's MCP server in one environment (docs/mcp.md). */
export function mcpUrl(publicUrl: string, envSlug: string, apiSlug: string): string {
  return `${publicUrl}/mcp/${envSlug}/${apiSlug}`;
}

function mcpLines(apis: ListedApi[], publicUrl: string): string[] {
  return apis
    .filter((api) => api.mcpEnabled)
    .map((api) => `- ${linkText(api.name)}: ${api.environments.map((env) => `${mcpUrl(publicUrl, env.slug, api.slug)} (${env.slug})`).join(", ")}`);
}

function guideLines(api: ListedApi, publicUrl: string): string[] {
  return api.guides.map(
    (guide) => `- [${linkText(guide.title)}](${publicUrl}${guideHref(api.slug, guide.slug)}.md): a guide to the ${oneLine(api.name)}, in Markdown`,
  );
}

function environmentLines(apis: ListedApi[], publicUrl: string): string[] {
  const environments = new Map(apis.flatMap((api) => api.environments).map((env) => [env.slug, env]));
  return [...environments.values()].map(
    (env) =>
      `- [${linkText(env.name)}](${gatewayUrl(publicUrl, env.slug)}/.well-known/oauth-authorization-server): ` +
      `\`?env=${env.slug}\`, token endpoint ${tokenEndpointUrl(publicUrl, env.slug)}`,
  );
}

/** The management API, which the portal serves itself, in no environment. */
type ManagementApi = { name: string; summary: string; documentUrl: string };

function managementLine(api: ManagementApi): string {
  return `- [${linkText(api.name)}](${api.documentUrl}): ${oneLine(api.summary)} (OpenAPI document; needs a personal access token)`;
}

/**
 * The portal for language models, in the llms.txt format (https://llmstxt.org): a title, a
 * one-line summary, each API's OpenAPI document with its summary, the management API's last,
 * the APIs' Markdown guides, and the environments.
 */
export function llmsTxt({
  apis,
  management,
  publicUrl,
  portalName,
}: {
  apis: ListedApi[];
  management: ManagementApi;
  publicUrl: string;
  portalName: string;
}): string {
  const guides = apis.flatMap((api) => guideLines(api, publicUrl));
  const mcp = mcpLines(apis, publicUrl);
  return [
    `# ${portalName} developer portal`,
    "",
    `> ${apis.length === 1 ? "1 API" : `${apis.length} APIs`} served through the ${portalName} gateway, each with its OpenAPI document.`,
    "",
    "Protected APIs take an OAuth 2.0 access token (client credentials grant) from the token endpoint of the environment they are called in; public APIs take none. " +
      "Each OpenAPI document names one environment's gateway as its server, the API's first environment unless `?env=` names another. " +
      "The management API is the portal's own, for scripts and CI: it takes a personal access token.",
    "",
    "## APIs",
    "",
    ...apis.map((api) => apiLine(api, publicUrl)),
    managementLine(management),
    "",
    ...(guides.length > 0 ? ["## Guides", "", ...guides, ""] : []),
    ...(mcp.length > 0
      ? [
          "## MCP servers",
          "",
          "Each API's operations as the tools of an MCP server (Streamable HTTP), per environment; they take the same access token.",
          "",
          ...mcp,
          "",
        ]
      : []),
    "## Environments",
    "",
    ...environmentLines(apis, publicUrl),
    "",
  ].join("\n");
}
