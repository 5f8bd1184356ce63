type OpenApiDocument = Record<string, unknown>;

const OPERATION_KEYS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function withoutServers(item: unknown): unknown {
  if (!isRecord(item)) return item;
  const { servers: _servers, ...rest } = item;
  return rest;
}

/**
 * The document with exactly one server, the gateway URL being viewed. Server
 * overrides on paths and operations go too: they would bring back a choice of
 * servers in Swagger UI and send try-it calls around the gateway.
 */
export function withSingleServer(document: OpenApiDocument, server: { url: string; description: string }): OpenApiDocument {
  const paths = isRecord(document.paths) ? document.paths : {};
  const cleanedPaths = Object.fromEntries(
    Object.entries(paths).map(([path, item]) => {
      const cleaned = withoutServers(item);
      if (!isRecord(cleaned)) return [path, cleaned];
      const operations = Object.fromEntries(Object.entries(cleaned).map(([key, value]) => [key, OPERATION_KEYS.includes(key) ? withoutServers(value) : value]));
      return [path, operations];
    }),
  );
  // Published in the portal's catalog for client developers: not an internal server.
  return { ...document, servers: [{ ...server, "x-internal": false }], paths: cleanedPaths };
}
