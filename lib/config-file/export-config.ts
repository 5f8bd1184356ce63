import { DEFAULT_AUTHENTICATION } from "../gateway/policies/authentication/schema";
import { stringify } from "yaml";
import type { ConfigFile } from "./config-file-schema";
import type { ApiState, GatewayState } from "./gateway-state";

type ExportedFile = Omit<ConfigFile, "apis" | "plans" | "trust"> & {
  plans?: ConfigFile["plans"];
  apis: Record<string, unknown>[];
  trust?: ConfigFile["trust"];
};

/** An API with one version, `v1`, current and undated, is written as before versions: its document is the API's. */
function hasVersionsOfItsOwn(versions: ApiState["versions"]): versions is NonNullable<ApiState["versions"]> {
  const [only, ...others] = versions ?? [];
  return !!only && (others.length > 0 || only.version !== "v1" || only.status !== "current" || !!only.deprecatedAt || !!only.sunsetAt);
}

const documentOf = (text: string | null | undefined) => (text ? { openapi: JSON.parse(text) as unknown } : {});

/** The API's fields as the file writes them: its document and version, or its versions each with theirs. */
function versionFields({ version, openapiDocument, versions }: Pick<ApiState, "version" | "openapiDocument" | "versions">): Record<string, unknown> {
  if (!hasVersionsOfItsOwn(versions)) return { version, ...documentOf(openapiDocument) };
  return {
    versions: versions.map(({ openapiDocument: text, deprecatedAt, sunsetAt, changelog, ...entry }) => ({
      ...entry,
      ...documentOf(text),
      ...(deprecatedAt ? { deprecatedAt } : {}),
      ...(sunsetAt ? { sunsetAt } : {}),
      ...(changelog?.length ? { changelog } : {}),
    })),
  };
}

const unlessEmpty = <Name extends string>(name: Name, value: object) => (Object.keys(value).length > 0 ? { [name]: value } : {});

/**
 * One API as the file writes it: its document(s) and guides inline, scopes as plain names where
 * the description repeats them, policies and routes only when it has some.
 */
export function configApiEntry({
  openapiDocument,
  version,
  versions,
  scopes,
  guides,
  environments,
  policies,
  routes,
  plans,
  authentication,
  mcp,
  ...api
}: ApiState): Record<string, unknown> {
  return {
    ...api,
    ...(authentication.join(" ") === DEFAULT_AUTHENTICATION.join(" ") ? {} : { authentication }),
    ...(plans.length > 0 ? { plans } : {}),
    ...(guides ? { guides: guides.map(({ markdown, ...guide }) => ({ ...guide, content: markdown })) } : {}),
    scopes: scopes.map((scope) => (scope.description === scope.name ? scope.name : scope)),
    ...versionFields({ version, openapiDocument, versions }),
    environments,
    ...unlessEmpty("policies", policies),
    ...unlessEmpty("routes", routes),
    ...(mcp.enabled || Object.keys(mcp).length > 1 ? { mcp } : {}),
  };
}

/**
 * The state as a configuration file that applies with no changes: every field written
 * out, OpenAPI documents and guides inline, scopes as plain names where the description repeats them.
 */
export function exportConfig(state: GatewayState, schemaUrl: string): string {
  const file: ExportedFile = {
    environments: state.environments,
    ...(state.plans.length > 0 ? { plans: state.plans } : {}),
    apis: state.apis.map(configApiEntry),
    ...(state.trust.length > 0 ? { trust: state.trust } : {}),
  };
  const header = [`# yaml-language-server: $schema=${schemaUrl}`, "# Gatehouse configuration: npm run --silent admin -- config apply -f <this file>"];
  return `${header.join("\n")}\n${stringify(file, { lineWidth: 0 })}`;
}
