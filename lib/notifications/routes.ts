import "server-only";
import type { BuiltInRoute, RouteCall } from "../gateway/types";
import { validationProblem, zodProblem } from "../http/problem";
import { ifNoneMatchMatches, notificationEtag } from "./etag";
import { getNotification } from "./get-notification";
import { jsonResponse, queryObject, readJsonObject } from "./http";
import { listNotifications } from "./list-notifications";
import { toResource } from "./representation";
import { entityTagListSchema, listNotificationsQuerySchema, updateNotificationBodySchema } from "./schemas";
import type { NotificationStore } from "./store";
import { updateNotification } from "./update-notification";

export const NOTIFICATIONS_READ_SCOPE = "notifications:read";
export const NOTIFICATIONS_WRITE_SCOPE = "notifications:write";

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

export type NotificationRoutesDeps = { store: NotificationStore };

/** The Notifications API 1.0.0 operations, as the gateway mounts them under `/{env}/notifications`. */
export function createNotificationRoutes(deps: NotificationRoutesDeps): BuiltInRoute[] {
  return [
    {
      method: "GET",
      path: "/v1/notifications",
      scope: NOTIFICATIONS_READ_SCOPE,
      async handle(call) {
        const query = listNotificationsQuerySchema.safeParse(queryObject(call.url));
        if (!query.success) throw zodProblem(query.error, "query");
        const page = await listNotifications({ store: deps.store, ...owner(call), query: query.data });
        return jsonResponse(
          { items: page.items.map(toResource), nextCursor: page.nextCursor },
          page.nextCursor ? { link: nextLink(call.url, page.nextCursor) } : {},
        );
      },
    },
    {
      method: "GET",
      path: "/v1/notifications/{id}",
      scope: NOTIFICATIONS_READ_SCOPE,
      async handle(call) {
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
    },
    {
      method: "PUT",
      path: "/v1/notifications/{id}",
      scope: NOTIFICATIONS_WRITE_SCOPE,
      async handle(call) {
        const body = updateNotificationBodySchema.safeParse(await readJsonObject(call.request));
        if (!body.success) throw zodProblem(body.error, "body");
        const id = call.params.id ?? "";
        const ifMatch = entityTagHeader(call, "If-Match");
        const row = await updateNotification({ store: deps.store, ...owner(call), id, input: body.data, ifMatch });
        return jsonResponse(toResource(row), { etag: notificationEtag(row.version) });
      },
    },
  ];
}
