import type { DirectoryView, GatewayApi, GatewayEnvironment } from "./directory";

/** The sentence a 404 for an unknown environment ends with: where a caller can go instead. */
export function environmentList(directory: Pick<DirectoryView, "environments">): string {
  const slugs = directory.environments().map((env) => env.slug);
  return slugs.length === 0 ? "There are no environments yet." : `Environments: ${slugs.join(", ")}.`;
}

/** The sentence a 404 for an unknown API ends with: the environment's APIs and its token endpoint. */
export function apiList(env: GatewayEnvironment, apis: readonly GatewayApi[]): string {
  const served = apis.filter((api) => api.kind !== "TOKEN").map((api) => `/gw/${env.slug}/${api.slug}`);
  const apisText = served.length === 0 ? `"${env.slug}" serves no API yet` : `APIs in "${env.slug}": ${served.join(", ")}`;
  return `${apisText}; its token endpoint is /gw/${env.slug}/oauth2/token.`;
}
