import { z } from "zod";
import { jsonSchema, operationPaths, problemExample } from "../built-in-apis/operation";
import { CORS_NOTE } from "../http/cors-note";
import type { ProblemCode } from "../http/problem-types";
import { MAX_REQUEST_ID_LENGTH } from "../http/request-id";
import { MAX_BODY_BYTES } from "../http/json-body";
import { RATE_LIMIT_HEADERS, REQUEST_ID_HEADER } from "./openapi-responses";
import { NOTIFICATION_OPERATIONS, NOTIFICATIONS_READ_SCOPE, NOTIFICATIONS_WRITE_SCOPE } from "./operations";
import { NOTIFICATION_EXAMPLE, MAX_PAGE_SIZE, notificationIdSchema, notificationListSchema, notificationSchema, updateNotificationBodySchema } from "./schemas";

export const NOTIFICATIONS_API_VERSION = "1.0.0";
export const NOTIFICATIONS_CHANGELOG = [{ version: "1.0.0", date: "2022-12-05", summary: "1.0.0 — initial release, 5 December 2022" }];

type JsonSchema = Record<string, unknown>;

/** What a problem can echo of a request is bounded by what Node accepts: 16 KiB of request line and headers. */
const MAX_ECHOED_LENGTH = 16 * 1024;

const fieldErrorSchema = z.object({
  in: z.enum(["body", "query", "path", "header"]),
  field: z.string().max(MAX_ECHOED_LENGTH).meta({ description: "Dotted path of the failing field or parameter; empty for the whole body." }),
  message: z.string().max(MAX_ECHOED_LENGTH),
});

const problemSchema = z
  .object({
    type: z.url().max(2048).meta({ description: "URI naming the problem type, e.g. …/problems/not-found" }),
    title: z.string().max(200),
    status: z.int32().min(400).max(599).meta({ format: "int32" }),
    detail: z
      .string()
      .max(MAX_BODY_BYTES + MAX_ECHOED_LENGTH)
      .optional(),
    instance: z.string().max(MAX_ECHOED_LENGTH).meta({ description: "The request path." }),
    requestId: z.string().max(MAX_REQUEST_ID_LENGTH).meta({ description: "Quote it when reporting a problem; also in the X-Request-Id header." }),
    traceId: z
      .string()
      .length(32)
      .regex(/^[0-9a-f]{32}$/)
      .meta({ description: "The W3C trace id of the request: the one of your traceparent header when it was valid, else one the gateway started." }),
    errors: z.array(fieldErrorSchema).max(MAX_BODY_BYTES).optional().meta({ description: "Present on 400: one entry per failing field." }),
  })
  .meta({ description: "RFC 9457 problem details." });

const requestIdHeader = {
  description: "Echoes a sane incoming X-Request-Id, otherwise a new one.",
  schema: { type: "string", maxLength: MAX_REQUEST_ID_LENGTH },
};

/** The gateway's realm for an environment: its slug, the last segment of `gatewayUrl`. */
function realmOf(gatewayUrl: string): string {
  return new URL(gatewayUrl).pathname.split("/").filter(Boolean).at(-1) ?? "gateway";
}

/** The shared answers of authentication, authorization and rate limiting, for every operation with a scope. */
const AUTH_PROBLEMS = [
  { ref: "Unauthorized", code: "token-expired" },
  { ref: "Forbidden", code: "scope-missing" },
  { ref: "TooManyRequests", code: "rate-limited" },
] as const;

function problemResponse(description: string, example: JsonSchema, headers: JsonSchema = RATE_LIMIT_HEADERS) {
  return {
    description,
    headers: { ...REQUEST_ID_HEADER, ...headers },
    content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" }, example } },
  };
}

/**
 * The OpenAPI 3.1 document of the Notifications API as served in one
 * environment; `gatewayUrl` is `{PUBLIC_URL}/gw/{env}`, and the API's only
 * server is `{gatewayUrl}/notifications`.
 */
export function notificationsDocument({ gatewayUrl }: { gatewayUrl: string }): Record<string, unknown> {
  const context = { gatewayUrl, envSlug: realmOf(gatewayUrl) };
  const exampleInstance = new URL(`${gatewayUrl}/notifications/v1/notifications/${NOTIFICATION_EXAMPLE.id}`).pathname;
  const example = (code: ProblemCode, detail: string) => problemExample(context, exampleInstance, code, detail);
  const realm = context.envSlug;
  return {
    openapi: "3.1.0",
    info: {
      title: "Notifications API",
      version: NOTIFICATIONS_API_VERSION,
      summary: "Messages to your client application: list them, fetch one, mark them read or archived.",
      description: [
        "A notification belongs to one client application in one environment; a client sees and changes only its own.",
        "Call it with an access token from this environment's token endpoint (`POST /oauth2/token` on the gateway).",
        `Reading needs the scope \`${NOTIFICATIONS_READ_SCOPE}\`, updating \`${NOTIFICATIONS_WRITE_SCOPE}\`.`,
        CORS_NOTE,
        "",
        "## Changelog",
        "",
        ...NOTIFICATIONS_CHANGELOG.map((entry) => `- ${entry.summary}`),
      ].join("\n"),
      "x-changelog": NOTIFICATIONS_CHANGELOG,
    },
    servers: [{ url: `${gatewayUrl}/notifications`, description: "Gateway" }],
    security: [{ bearerAuth: [] }],
    tags: [{ name: "Notifications" }],
    paths: operationPaths(NOTIFICATION_OPERATIONS, {
      context,
      problemResponse: ({ code, description, detail, errors }) =>
        problemResponse(description, problemExample(context, exampleInstance, code, detail, errors ? { errors } : {})),
      security: { scheme: "bearerAuth", problems: AUTH_PROBLEMS },
    }),
    components: {
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description:
            "An access token (RFC 9068 JWT) from this environment's token endpoint, client credentials grant. " +
            "Tokens are issued and verified as RFC8725 (JWT Best Current Practices) recommends: RS256 only (never `none`), explicit `typ: at+jwt`, and `iss`, `aud` and `exp` always checked.",
        },
      },
      schemas: {
        Notification: jsonSchema(notificationSchema, "output"),
        NotificationList: {
          ...jsonSchema(notificationListSchema, "output"),
          properties: {
            items: { type: "array", maxItems: MAX_PAGE_SIZE, items: { $ref: "#/components/schemas/Notification" } },
            nextCursor: jsonSchema(notificationListSchema.shape.nextCursor, "output"),
          },
        },
        UpdateNotification: jsonSchema(updateNotificationBodySchema, "input"),
        Problem: jsonSchema(problemSchema, "output"),
      },
      parameters: {
        NotificationId: {
          name: "id",
          in: "path",
          required: true,
          description: "The notification's id.",
          schema: jsonSchema(notificationIdSchema, "input"),
          example: NOTIFICATION_EXAMPLE.id,
        },
      },
      headers: {
        XRequestId: requestIdHeader,
        ETag: { description: "Strong entity tag of this version of the notification.", schema: { type: "string", maxLength: 24 }, example: '"v2"' },
        RateLimit: {
          description: 'What is left of the client\'s budget: `"client";r={remaining};t={seconds}` (IETF RateLimit header fields).',
          schema: { type: "string", maxLength: 64 },
          example: '"client";r=99;t=1',
        },
        RateLimitPolicy: {
          description: 'The client\'s budget: `"client";q={burst};w={seconds to refill}`.',
          schema: { type: "string", maxLength: 64 },
          example: '"client";q=100;w=2',
        },
      },
      responses: {
        Unauthorized: problemResponse(
          "The access token is missing, malformed, invalid, expired, revoked or from another environment.",
          example("token-expired", "The access token expired at 2022-12-05T10:00:00Z."),
          {
            "WWW-Authenticate": {
              description: `Bearer challenge, e.g. Bearer realm="${realm}", error="invalid_token".`,
              schema: { type: "string", maxLength: 1024 },
            },
          },
        ),
        Forbidden: problemResponse(
          "The API is not granted to this client, or the token lacks the operation's scope.",
          example("scope-missing", "This operation needs the scope notifications:write."),
          {
            "WWW-Authenticate": {
              description: `Bearer realm="${realm}", error="insufficient_scope", scope="..."`,
              schema: { type: "string", maxLength: 1024 },
            },
          },
        ),
        NotFound: problemResponse(
          "No notification of this client has this id.",
          example("not-found", `There is no notification "${NOTIFICATION_EXAMPLE.id}".`),
        ),
        TooManyRequests: problemResponse("The client's rate limit in this environment is exhausted.", example("rate-limited", "Retry after 1 second."), {
          // The bucket refills at least one request a second (perSecond >= 1), so the wait is always one second.
          "Retry-After": { description: "Seconds to wait.", schema: { type: "integer", format: "int32", minimum: 1, maximum: 1 } },
          ...RATE_LIMIT_HEADERS,
        }),
      },
    },
  };
}
