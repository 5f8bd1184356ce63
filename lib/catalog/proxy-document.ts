import { parse } from "yaml";
import { bearerSchemeName } from "./bearer-scheme";

type OpenApiDocument = Record<string, unknown>;

type ProxiedApi = { name: string; summary: string; version: string; isPublic: boolean; openapiDocument: string | null };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseStored(text: string | null): OpenApiDocument | undefined {
  if (!text) return undefined;
  try {
    const parsed: unknown = parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The document of an API whose calls may use an API key: the `X-API-Key` scheme beside its
 * others, and every requirement offered either way (OpenAPI's list of requirements is any-of),
 * so the Reference's Authorize dialog offers both (decision 064).
 */
export function withApiKeyScheme(document: OpenApiDocument): OpenApiDocument {
  const components = isRecord(document.components) ? document.components : {};
  const schemes = isRecord(components.securitySchemes) ? components.securitySchemes : {};
  const security = Array.isArray(document.security) ? (document.security as unknown[]) : [];
  const apiKey = { apiKeyAuth: [] };
  return {
    ...document,
    components: {
      ...components,
      securitySchemes: { ...schemes, apiKeyAuth: { type: "apiKey", in: "header", name: "X-API-Key", description: "An API key, `gk_…`." } },
    },
    security: [...security, apiKey],
  };
}

/**
 * A proxied API's uploaded document. The gateway demands a bearer token for
 * every protected API, so a document that forgot to say so gets the scheme
 * added; otherwise Swagger UI would offer no way to authorize.
 */
export function proxyDocument(api: ProxiedApi): OpenApiDocument {
  const document = parseStored(api.openapiDocument) ?? {
    openapi: "3.1.0",
    info: { title: api.name, version: api.version, description: api.summary },
    paths: {},
  };
  if (api.isPublic || bearerSchemeName(document)) return document;
  const components = isRecord(document.components) ? document.components : {};
  const schemes = isRecord(components.securitySchemes) ? components.securitySchemes : {};
  return {
    ...document,
    components: { ...components, securitySchemes: { ...schemes, bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    security: [{ bearerAuth: [] }],
  };
}
