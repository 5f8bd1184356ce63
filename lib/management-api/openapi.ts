import "server-only";
import { ACCESS_TOKEN_SCOPES, ADMIN_SCOPES } from "../access-tokens/scopes";
import { operationPaths, problemExample } from "../built-in-apis/operation";
import { ANSWER_HEADERS } from "./operation-kit";
import { MANAGEMENT_OPERATIONS } from "./operations";
import { ACCESS_TOKEN_RATE_LIMIT } from "./rate-limit";

const PROBLEM_CONTENT = (example: Record<string, unknown>) => ({ "application/problem+json": { example } });

/** The OpenAPI 3.1 document of the management API at `{publicUrl}/api/v1`, built from the operations the routes serve. */
export function managementApiDocument({ publicUrl }: { publicUrl: string }): Record<string, unknown> {
  const context = { gatewayUrl: publicUrl, envSlug: "" };
  const instance = "/api/v1/credentials";
  const example = (code: Parameters<typeof problemExample>[2], detail: string) => {
    const { traceId: _none, ...body } = problemExample(context, instance, code, detail);
    return body;
  };
  // Admin operations name a scheme of their own, so a reader sees at once which need an administrator's token.
  const paths = (operations: typeof MANAGEMENT_OPERATIONS, scheme: string) =>
    operationPaths(operations, {
      context,
      problemResponse: ({ code, description, detail, errors }) => ({
        description,
        headers: ANSWER_HEADERS,
        content: PROBLEM_CONTENT({ ...example(code, detail), ...(errors ? { errors } : {}) }),
      }),
      security: {
        scheme,
        problems: [
          { ref: "Unauthorized", code: "access-token-invalid" },
          { ref: "Forbidden", code: "access-token-scope-missing" },
          { ref: "TooManyRequests", code: "access-token-rate-limited" },
        ],
      },
    });
  return {
    openapi: "3.1.0",
    info: {
      title: "Gatehouse Management API",
      version: "1.0.0",
      summary: "Your applications, credentials and usage, for scripts and CI.",
      description: [
        "Authenticate with a personal access token (`gpat_…`) from Settings → Access tokens, as `Authorization: Bearer gpat_…`. Session cookies are never accepted.",
        `Scopes: ${Object.entries(ACCESS_TOKEN_SCOPES)
          .map(([scope, text]) => `\`${scope}\` (${text})`)
          .join(", ")}.`,
        `Each token may send a burst of ${ACCESS_TOKEN_RATE_LIMIT.burst} requests, refilled at ${ACCESS_TOKEN_RATE_LIMIT.perSecond} a second.`,
      ].join("\n\n"),
    },
    servers: [{ url: `${publicUrl}/api/v1`, "x-internal": false }],
    security: [{ accessToken: [] }],
    tags: [{ name: "Credentials" }, { name: "Usage" }, { name: "Teams" }, { name: "Webhooks" }, { name: "Administration" }],
    paths: {
      ...paths(
        MANAGEMENT_OPERATIONS.filter((operation) => !ADMIN_SCOPES.includes(operation.scope)),
        "accessToken",
      ),
      ...paths(
        MANAGEMENT_OPERATIONS.filter((operation) => ADMIN_SCOPES.includes(operation.scope)),
        "adminAccessToken",
      ),
    },
    components: {
      securitySchemes: {
        accessToken: { type: "http", scheme: "bearer", bearerFormat: "gpat_ personal access token", description: "A personal access token." },
        adminAccessToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "gpat_ personal access token",
          description: "A personal access token of an administrator, with admin scopes.",
        },
      },
      headers: {
        RateLimit: {
          description: 'What is left of the token\'s budget: `"client";r={remaining};t={seconds}` (IETF RateLimit header fields).',
          schema: { type: "string", maxLength: 64 },
        },
        RateLimitPolicy: { description: 'The token\'s budget: `"client";q={burst};w={seconds to refill}`.', schema: { type: "string", maxLength: 64 } },
      },
      responses: {
        Unauthorized: {
          description: "No personal access token, or one that is unknown, expired or revoked.",
          content: PROBLEM_CONTENT(example("access-token-invalid", "The access token pat_… expired at 2026-01-01T00:00:00.000Z.")),
        },
        Forbidden: {
          description: "The token lacks the operation's scope.",
          headers: ANSWER_HEADERS,
          content: PROBLEM_CONTENT(example("access-token-scope-missing", "This operation needs the scope credentials:write.")),
        },
        TooManyRequests: {
          description: "The token's rate limit is exhausted.",
          headers: {
            "Retry-After": { description: "Seconds to wait.", schema: { type: "integer", format: "int32", minimum: 1, maximum: 60 } },
            ...ANSWER_HEADERS,
          },
          content: PROBLEM_CONTENT(example("access-token-rate-limited", "Retry after 1 second.")),
        },
      },
    },
  };
}
