import "server-only";
import { ACCESS_TOKEN_SCOPES } from "../access-tokens/scopes";
import { operationPaths, problemExample } from "../built-in-apis/operation";
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
    servers: [{ url: `${publicUrl}/api/v1` }],
    security: [{ accessToken: [] }],
    tags: [{ name: "Credentials" }, { name: "Usage" }, { name: "Administration" }],
    paths: operationPaths(MANAGEMENT_OPERATIONS, {
      context,
      problemResponse: ({ code, description, detail, errors }) => ({
        description,
        content: PROBLEM_CONTENT({ ...example(code, detail), ...(errors ? { errors } : {}) }),
      }),
      security: {
        scheme: "accessToken",
        problems: [
          { ref: "Unauthorized", code: "access-token-invalid" },
          { ref: "Forbidden", code: "access-token-scope-missing" },
          { ref: "TooManyRequests", code: "access-token-rate-limited" },
        ],
      },
    }),
    components: {
      securitySchemes: {
        accessToken: { type: "http", scheme: "bearer", bearerFormat: "gpat_ personal access token", description: "A personal access token." },
      },
      responses: {
        Unauthorized: {
          description: "No personal access token, or one that is unknown, expired or revoked.",
          content: PROBLEM_CONTENT(example("access-token-invalid", "The access token pat_… expired at 2026-01-01T00:00:00.000Z.")),
        },
        Forbidden: {
          description: "The token lacks the operation's scope.",
          content: PROBLEM_CONTENT(example("access-token-scope-missing", "This operation needs the scope credentials:write.")),
        },
        TooManyRequests: {
          description: "The token's rate limit is exhausted.",
          headers: { "Retry-After": { description: "Seconds to wait.", schema: { type: "integer", minimum: 1 } } },
          content: PROBLEM_CONTENT(example("access-token-rate-limited", "Retry after 1 second.")),
        },
      },
    },
  };
}
