import { z } from "zod";
import { CORS_NOTE } from "../http/cors-note";
import { PROBLEMS, type ProblemCode } from "../http/problem-types";
import { MAX_REQUEST_ID_LENGTH } from "../http/request-id";
import { MAX_BODY_BYTES } from "./http";
import {
  entityTagListSchema,
  listNotificationsQuerySchema,
  NOTIFICATION_EXAMPLE,
  MAX_PAGE_SIZE,
  notificationIdSchema,
  notificationListSchema,
  notificationSchema,
  updateNotificationBodySchema,
} from "./schemas";

export const NOTIFICATIONS_API_VERSION = "1.0.0";
export const NOTIFICATIONS_CHANGELOG = [{ version: "1.0.0", date: "2022-12-05", summary: "1.0.0 — initial release, 5 December 2022" }];

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" });
  return rest;
}

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
    detail: z.string().max(MAX_BODY_BYTES + MAX_ECHOED_LENGTH).optional(),
    instance: z.string().max(MAX_ECHOED_LENGTH).meta({ description: "The request path." }),
    requestId: z.string().max(MAX_REQUEST_ID_LENGTH).meta({ description: "Quote it when reporting a problem; also in the X-Request-Id header." }),
    errors: z.array(fieldErrorSchema).max(MAX_BODY_BYTES).optional().meta({ description: "Present on 400: one entry per failing field." }),
  })
  .meta({ description: "RFC 9457 problem details." });

function problemExample(gatewayUrl: string, code: ProblemCode, detail: string, extra: JsonSchema = {}) {
  return {
    type: `${new URL(gatewayUrl).origin}/problems/${code}`,
    title: PROBLEMS[code].title,
    status: PROBLEMS[code].status,
    detail,
    instance: new URL(`${gatewayUrl}/notifications/v1/notifications/${NOTIFICATION_EXAMPLE.id}`).pathname,
    requestId: "req_5f0c2a9e7b1d4c3a",
    ...extra,
  };
}

const requestIdHeader = {
  description: "Echoes a sane incoming X-Request-Id, otherwise a new one.",
  schema: { type: "string", maxLength: MAX_REQUEST_ID_LENGTH },
};

/** The IETF RateLimit header fields the gateway sends once it has taken the client's budget (lib/gateway/rate-limit.ts). */
const rateLimitHeaders = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
};

function problemResponse(description: string, example: JsonSchema, headers: JsonSchema = rateLimitHeaders) {
  return {
    description,
    headers: { "X-Request-Id": { $ref: "#/components/headers/XRequestId" }, ...headers },
    content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" }, example } },
  };
}

/** Query parameters straight from the schema that validates them. */
function queryParameters(): JsonSchema[] {
  return Object.entries(listNotificationsQuerySchema.shape).map(([name, schema]) => {
    const { description, example, ...rest } = jsonSchema(schema, "input");
    return { name, in: "query", required: false, description, schema: rest, ...(example === undefined ? {} : { example }) };
  });
}

function success(description: string, schemaRef: string, example: unknown, headers: JsonSchema) {
  return {
    description,
    headers: { "X-Request-Id": { $ref: "#/components/headers/XRequestId" }, ...rateLimitHeaders, ...headers },
    content: { "application/json": { schema: { $ref: schemaRef }, example } },
  };
}

const authErrors = {
  "401": { $ref: "#/components/responses/Unauthorized" },
  "403": { $ref: "#/components/responses/Forbidden" },
  "429": { $ref: "#/components/responses/TooManyRequests" },
};

/**
 * The OpenAPI 3.1 document of the Notifications API as served in one
 * environment; `gatewayUrl` is `{PUBLIC_URL}/gw/{env}`, and the API's only
 * server is `{gatewayUrl}/notifications`.
 */
export function notificationsDocument({ gatewayUrl }: { gatewayUrl: string }): Record<string, unknown> {
  const example = (code: ProblemCode, detail: string, extra?: JsonSchema) => problemExample(gatewayUrl, code, detail, extra);
  const realm = new URL(gatewayUrl).pathname.split("/").filter(Boolean).at(-1) ?? "gateway";
  return {
    openapi: "3.1.0",
    info: {
      title: "Notifications API",
      version: NOTIFICATIONS_API_VERSION,
      summary: "Messages to your client application: list them, fetch one, mark them read or archived.",
      description: [
        "A notification belongs to one client application in one environment; a client sees and changes only its own.",
        "Call it with an access token from this environment's token endpoint (`POST /oauth2/token` on the gateway).",
        "Reading needs the scope `notifications:read`, updating `notifications:write`.",
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
    paths: {
      "/v1/notifications": {
        get: {
          operationId: "listNotifications",
          tags: ["Notifications"],
          summary: "List notifications",
          description:
            "Newest first, ties broken by id. Follow `nextCursor` (or the `Link` header) to page: every notification is returned exactly once, even while new ones arrive. Unknown or repeated parameters are rejected. Scope: `notifications:read`.",
          "x-required-scope": "notifications:read",
          parameters: queryParameters(),
          responses: {
            "200": success("A page of notifications.", "#/components/schemas/NotificationList", { items: [NOTIFICATION_EXAMPLE], nextCursor: null }, {
              Link: {
                description: 'The next page, as `<url>; rel="next"`; absent on the last page.',
                schema: { type: "string", maxLength: 4096 },
              },
            }),
            "400": problemResponse(
              "A query parameter is unknown, repeated or has a bad value.",
              example("validation-failed", "query limit: must be an integer from 1 to 100", {
                errors: [{ in: "query", field: "limit", message: "must be an integer from 1 to 100" }],
              }),
            ),
            ...authErrors,
          },
        },
      },
      "/v1/notifications/{id}": {
        parameters: [{ $ref: "#/components/parameters/NotificationId" }],
        get: {
          operationId: "getNotification",
          tags: ["Notifications"],
          summary: "Fetch one notification",
          description: "Answers with a strong `ETag`; send it back in `If-None-Match` to get 304 when nothing changed. Scope: `notifications:read`.",
          "x-required-scope": "notifications:read",
          parameters: [
            {
              name: "If-None-Match",
              in: "header",
              required: false,
              description: "An ETag from an earlier response.",
              schema: jsonSchema(entityTagListSchema, "input"),
              example: '"v1"',
            },
          ],
          responses: {
            "200": success("The notification.", "#/components/schemas/Notification", NOTIFICATION_EXAMPLE, {
              ETag: { $ref: "#/components/headers/ETag" },
            }),
            "304": {
              description: "Not modified since the ETag in If-None-Match.",
              headers: { ETag: { $ref: "#/components/headers/ETag" }, "X-Request-Id": { $ref: "#/components/headers/XRequestId" }, ...rateLimitHeaders },
            },
            "400": problemResponse(
              "If-None-Match is longer than the API accepts.",
              example("validation-failed", "header If-None-Match: Too big: expected string to have <=256 characters", {
                errors: [{ in: "header", field: "If-None-Match", message: "Too big: expected string to have <=256 characters" }],
              }),
            ),
            ...authErrors,
            "404": { $ref: "#/components/responses/NotFound" },
          },
        },
        put: {
          operationId: "updateNotification",
          tags: ["Notifications"],
          summary: "Update a notification's status",
          description:
            "Only `status` is writable. `read` sets `readAt` the first time; `unread` clears it. Other fields of the resource may be sent back but must equal the stored values. Send `If-Match` with the ETag you hold to avoid overwriting someone else's change. Scope: `notifications:write`.",
          "x-required-scope": "notifications:write",
          parameters: [
            {
              name: "If-Match",
              in: "header",
              required: false,
              description: "Update only if the notification still has this ETag; otherwise 412 and nothing changes.",
              schema: jsonSchema(entityTagListSchema, "input"),
              example: '"v1"',
            },
          ],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/UpdateNotification" },
                examples: { markRead: { value: { status: "read" } }, archive: { value: { status: "archived" } } },
              },
            },
          },
          responses: {
            "200": success(
              "The updated notification.",
              "#/components/schemas/Notification",
              { ...NOTIFICATION_EXAMPLE, status: "read", readAt: "2022-12-05T10:02:11.000Z", updatedAt: "2022-12-05T10:02:11.000Z" },
              { ETag: { $ref: "#/components/headers/ETag" } },
            ),
            "400": problemResponse(
              "Malformed JSON, an unknown field, a bad value, or a read-only field that differs from the stored value.",
              example("validation-failed", "body status: Invalid option; body priority: is not a known field", {
                errors: [
                  { in: "body", field: "status", message: 'Invalid option: expected one of "unread"|"read"|"archived"' },
                  { in: "body", field: "priority", message: "is not a known field" },
                ],
              }),
            ),
            ...authErrors,
            "404": { $ref: "#/components/responses/NotFound" },
            "412": problemResponse(
              "If-Match did not match the current ETag; nothing was changed.",
              example("precondition-failed", `Notification "${NOTIFICATION_EXAMPLE.id}" has changed since the version named in If-Match; fetch it again.`),
            ),
            "413": problemResponse(
              `The body is larger than ${MAX_BODY_BYTES} bytes.`,
              example("payload-too-large", `The request body exceeds ${MAX_BODY_BYTES} bytes.`),
            ),
            "415": problemResponse(
              "The body is not application/json.",
              example("unsupported-media-type", "Send the body as application/json."),
            ),
          },
        },
      },
    },
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
        TooManyRequests: problemResponse(
          "The client's rate limit in this environment is exhausted.",
          example("rate-limited", "Retry after 1 second."),
          {
            // The bucket refills at least one request a second (perSecond >= 1), so the wait is always one second.
            "Retry-After": { description: "Seconds to wait.", schema: { type: "integer", format: "int32", minimum: 1, maximum: 1 } },
            ...rateLimitHeaders,
          },
        ),
      },
    },
  };
}
