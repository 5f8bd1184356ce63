import "server-only";
import { notificationsDocument } from "../notifications/openapi";
import { tokenApiDocument } from "../oauth/openapi";
import type { CatalogApi, CatalogEnvironment } from "./catalog-api";
import { markDeprecatedOperations } from "./catalog-versions";
import { apiServerUrl, gatewayUrl } from "./environment-urls";
import { proxyDocument, withApiKeyScheme } from "./proxy-document";
import { withSingleServer } from "./single-server";

type OpenApiDocument = Record<string, unknown>;

function documentOfKind(api: CatalogApi, env: CatalogEnvironment, publicUrl: string): OpenApiDocument {
  const gateway = gatewayUrl(publicUrl, env.slug);
  switch (api.kind) {
    case "NOTIFICATIONS":
      return notificationsDocument({ gatewayUrl: gateway });
    case "TOKEN":
      return tokenApiDocument({ api, env, gatewayUrl: gateway });
    case "PROXY":
      return proxyDocument(api);
  }
}

/**
 * The OpenAPI document of one API, at the version shown, as seen from one environment: its
 * gateway URL is the only server, and the operations the version marks deprecated say so.
 */
export function apiDocument(api: CatalogApi, env: CatalogEnvironment, publicUrl: string): OpenApiDocument {
  const document = documentOfKind(api, env, publicUrl);
  const authenticated = api.acceptsApiKeys && !api.isPublic && api.kind !== "TOKEN" ? withApiKeyScheme(document) : document;
  return withSingleServer(markDeprecatedOperations(authenticated, api.shownVersion), {
    url: apiServerUrl(publicUrl, api, env.slug),
    description: `${env.name} gateway`,
  });
}
