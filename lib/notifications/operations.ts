import "server-only";
import { defineOperation, jsonSchema } from "../built-in-apis/operation";
import type { BuiltInRoute, RouteCall } from "../built-in-apis/route";
import type { NotificationStore } from "../data-plane/notifications";
import { validationProblem, zodProblem } from "../http/problem";
import { ifNoneMatchMatches, notificationEtag } from "./etag";
import { getNotification } from "./get-notification";
import { MAX_BODY_BYTES, readJsonObject } from "../http/json-body";
import { jsonResponse, serializedJsonResponse, queryObject } from "./http";
import type { PageServer } from "./page-cache";
import { jsonSuccess, RATE_LIMIT_HEADERS, REQUEST_ID_HEADER } from "./openapi-responses";
import { toResource } from "./representation";
import { entityTagListSchema, listNotificationsQuerySchema, NOTIFICATION_EXAMPLE, updateNotificationBodySchema } from "./schemas";
import { updateNotification } from "./update-notification";

export const NOTIFICATIONS_READ_SCOPE = "notifications:read";
export const NOTIFICATIONS_WRITE_SCOPE = "notifications:write";

export type NotificationRoutesDeps = { store: NotificationStore; pages: PageServer };

function owner(call: RouteCall) {
  return { environmentId: call.env.id, clientId: call.caller.clientId };
}

function nextLink(url: URL, cursor: string): string {
  const next = new URL(url);
  next.searchParams.set("cursor", cursor);
  return `<${next.toString()}>; rel="next"`;
}

/** An `If-Match` or `If-None-Match` header within the length the document declares. */
function entityTagHeader(call: RouteCall, name: "If-Match" | "If-None-Match"): string | undefined {
  const value = call.request.headers.get(name);
  if (value === null) return undefined;
  const parsed = entityTagListSchema.safeParse(value);
  if (!parsed.success) throw validationProblem([{ in: "header", field: name, message: parsed.error.issues[0]?.message ?? "is not valid" }]);
  return parsed.data;
}

const TAGS = ["Notifications"];
const NOTIFICATION_ID = { $ref: "#/components/parameters/NotificationId" };
const NOT_FOUND = { ref: "NotFound", code: "not-found" } as const;
const ETAG = { ETag: { $ref: "#/components/headers/ETag" } };

function entityTagParameter(name: "If-Match" | "If-None-Match", description: string) {
  return { name, in: "header", required: false, description, schema: jsonSchema(entityTagListSchema, "input"), example: '"v1"' };
}

/** The Notifications API 1.0.0, as the gateway mounts it under `/{env}/notifications` and its document describes it. */
export const NOTIFICATION_OPERATIONS = [
  defineOperation({
    id: "listNotifications",
    method: "GET",
    path: "/v1/notifications",
    scope: NOTIFICATIONS_READ_SCOPE,
    tags: TAGS,
    summary: "List notifications",
    description:
      "Newest first, ties broken by id. Follow `nextCursor` (or the `Link` header) to page: every notification is returned exactly once, even while new ones arrive. Unknown or repeated parameters are rejected.",
    query: listNotificationsQuerySchema,
    responses: () => ({
      "200": jsonSuccess(
        "A page of notifications.",
        "#/components/schemas/NotificationList",
        { items: [NOTIFICATION_EXAMPLE], nextCursor: null },
        {
          Link: { description: 'The next page, as `<url>; rel="next"`; absent on the last page.', schema: { type: "string", maxLength: 4096 } },
        },
      ),
    }),
    problems: [
      {
        code: "validation-failed",
        description: "A query parameter is unknown, repeated or has a bad value.",
        detail: "query limit: must be an integer from 1 to 100",
        errors: [{ in: "query", field: "limit", message: "must be an integer from 1 to 100" }],
      },
    ],
    async handle(call: RouteCall, deps: NotificationRoutesDeps) {
      const query = listNotificationsQuerySchema.safeParse(queryObject(call.url));
      if (!query.success) throw zodProblem(query.error, "query");
      const page = await deps.pages({ store: deps.store, ...owner(call), query: query.data });
      return serializedJsonResponse(page.body, page.nextCursor ? { link: nextLink(call.url, page.nextCursor) } : {});
    },
  }),
  defineOperation({
    id: "getNotification",
    method: "GET",
    path: "/v1/notifications/{id}",
    scope: NOTIFICATIONS_READ_SCOPE,
    tags: TAGS,
    summary: "Fetch one notification",
    description: "Answers with a strong `ETag`; send it back in `If-None-Match` to get 304 when nothing changed.",
    pathParameters: [NOTIFICATION_ID],
    headers: [entityTagParameter("If-None-Match", "An ETag from an earlier response.")],
    responses: () => ({
      "200": jsonSuccess("The notification.", "#/components/schemas/Notification", NOTIFICATION_EXAMPLE, ETAG),
      "304": { description: "Not modified since the ETag in If-None-Match.", headers: { ...ETAG, ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS } },
    }),
    problems: [
      {
        code: "validation-failed",
        description: "If-None-Match is longer than the API accepts.",
        detail: "header If-None-Match: Too big: expected string to have <=256 characters",
        errors: [{ in: "header", field: "If-None-Match", message: "Too big: expected string to have <=256 characters" }],
      },
      NOT_FOUND,
    ],
    async handle(call: RouteCall, deps: NotificationRoutesDeps) {
      const id = call.params.id ?? "";
      // Read from the database every time, so every instance answers with what was last stored (read-your-writes).
      const row = await getNotification({ store: deps.store, ...owner(call), id });
      const etag = notificationEtag(row.version);
      const ifNoneMatch = entityTagHeader(call, "If-None-Match");
      if (ifNoneMatch !== undefined && ifNoneMatchMatches(ifNoneMatch, etag)) {
        return { status: 304, headers: { etag, "cache-control": "private, no-cache" }, body: null };
      }
      return jsonResponse(toResource(row), { etag });
    },
  }),
  defineOperation({
    id: "updateNotification",
    method: "PUT",
    path: "/v1/notifications/{id}",
    scope: NOTIFICATIONS_WRITE_SCOPE,
    tags: TAGS,
    summary: "Update a notification's status",
    description:
      "Only `status` is writable. `read` sets `readAt` the first time; `unread` clears it. Other fields of the resource may be sent back but must equal the stored values. Send `If-Match` with the ETag you hold to avoid overwriting someone else's change.",
    pathParameters: [NOTIFICATION_ID],
    headers: [entityTagParameter("If-Match", "Update only if the notification still has this ETag; otherwise 412 and nothing changes.")],
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/UpdateNotification" },
          examples: { markRead: { value: { status: "read" } }, archive: { value: { status: "archived" } } },
        },
      },
    },
    responses: () => ({
      "200": jsonSuccess(
        "The updated notification.",
        "#/components/schemas/Notification",
        { ...NOTIFICATION_EXAMPLE, status: "read", readAt: "2022-12-05T10:02:11.000Z", updatedAt: "2022-12-05T10:02:11.000Z" },
        ETAG,
      ),
    }),
    problems: [
      {
        code: "validation-failed",
        description: "Malformed JSON, an unknown field, a bad value, or a read-only field that differs from the stored value.",
        detail: "body status: Invalid option; body priority: is not a known field",
        errors: [
          { in: "body", field: "status", message: 'Invalid option: expected one of "unread"|"read"|"archived"' },
          { in: "body", field: "priority", message: "is not a known field" },
        ],
      },
      NOT_FOUND,
      {
        code: "precondition-failed",
        description: "If-Match did not match the current ETag; nothing was changed.",
        detail: `Notification "${NOTIFICATION_EXAMPLE.id}" has changed since the version named in If-Match; fetch it again.`,
      },
      {
        code: "payload-too-large",
        description: `The body is larger than ${MAX_BODY_BYTES} bytes.`,
        detail: `The request body exceeds ${MAX_BODY_BYTES} bytes.`,
      },
      { code: "unsupported-media-type", description: "The body is not application/json.", detail: "Send the body as application/json." },
    ],
    async handle(call: RouteCall, deps: NotificationRoutesDeps) {
      const body = updateNotificationBodySchema.safeParse(await readJsonObject(call.request));
      if (!body.success) throw zodProblem(body.error, "body");
      const id = call.params.id ?? "";
      const ifMatch = entityTagHeader(call, "If-Match");
      const row = await updateNotification({ store: deps.store, ...owner(call), id, input: body.data, ifMatch });
      return jsonResponse(toResource(row), { etag: notificationEtag(row.version) });
    },
  }),
];

/** The gateway's routes for the Notifications API: each declared operation bound to its store, once at start-up. */
export function createNotificationRoutes(deps: NotificationRoutesDeps): BuiltInRoute[] {
  return NOTIFICATION_OPERATIONS.map(({ method, path, scope, handle }) => ({ method, path, scope, handle: (call) => handle(call, deps) }));
}
