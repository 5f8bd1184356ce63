import type { EnvironmentRow } from "../data-plane/store";
import type { IncomingRequest, PlainResponse } from "../http/message";

// Declared here, below lib/gateway, which calls these routes, so that the APIs that implement
// them (lib/notifications) import nothing from the gateway.

/** Who is calling, as established by the gateway from a verified access token. */
export type Caller = { clientId: string; scopes: ReadonlySet<string> };

export type RouteCall = {
  request: IncomingRequest;
  url: URL;
  /** values of the `{name}` segments of the route's path */
  params: Record<string, string>;
  env: EnvironmentRow;
  caller: Caller;
  requestId: string;
};

/**
 * One operation of a built-in API. The gateway authenticates the caller, checks
 * `scope`, then calls `handle`; a thrown ProblemError becomes the response.
 * `path` is relative to the API's mount point and doubles as the route template
 * in the request log, e.g. `/v1/notifications/{id}`.
 */
export type BuiltInRoute = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  scope: string;
  handle(call: RouteCall): Promise<PlainResponse>;
};
