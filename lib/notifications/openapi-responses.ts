type JsonObject = Record<string, unknown>;

/** The IETF RateLimit header fields the gateway sends once it has taken the client's budget (lib/limiters/rate-limit.ts). */
export const RATE_LIMIT_HEADERS = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
};

export const REQUEST_ID_HEADER = { "X-Request-Id": { $ref: "#/components/headers/XRequestId" } };

export function jsonSuccess(description: string, schemaRef: string, example: unknown, headers: JsonObject): JsonObject {
  return {
    description,
    headers: { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS, ...headers },
    content: { "application/json": { schema: { $ref: schemaRef }, example } },
  };
}
