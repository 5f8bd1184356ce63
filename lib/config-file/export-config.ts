import { stringify } from "yaml";
import type { ConfigFile } from "./config-file-schema";
import type { GatewayState } from "./gateway-state";

type ExportedFile = Omit<ConfigFile, "apis" | "trust"> & { apis: Record<string, unknown>[]; trust?: ConfigFile["trust"] };

/**
 * The state as a configuration file that applies with no changes: every field written
 * out, OpenAPI documents and guides inline, scopes as plain names where the description repeats them.
 */
export function exportConfig(state: GatewayState, schemaUrl: string): string {
  const file: ExportedFile = {
    environments: state.environments,
    apis: state.apis.map(({ openapiDocument, scopes, guides, environments, ...api }) => ({
      ...api,
      ...(guides ? { guides: guides.map(({ markdown, ...guide }) => ({ ...guide, content: markdown })) } : {}),
      scopes: scopes.map((scope) => (scope.description === scope.name ? scope.name : scope)),
      ...(openapiDocument ? { openapi: JSON.parse(openapiDocument) as unknown } : {}),
      environments,
    })),
    ...(state.trust.length > 0 ? { trust: state.trust } : {}),
  };
  const header = [`# yaml-language-server: $schema=${schemaUrl}`, "# Gatehouse configuration: npm run --silent admin -- config apply -f <this file>"];
  return `${header.join("\n")}\n${stringify(file, { lineWidth: 0 })}`;
}
