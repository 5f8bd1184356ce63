import { z } from "zod";
import { requestValidationSchema } from "./request-validation/schema";
import { responseCacheSchema } from "./response-cache/schema";
import { websocketSchema } from "./websocket/schema";

/** The policies an operator attaches to an API, or to one of its routes. */
export const policySetSchema = z
  .object({
    requestValidation: requestValidationSchema.optional(),
    responseCache: responseCacheSchema.optional(),
    websocket: websocketSchema.optional(),
  })
  .strict();

export type PolicySet = z.infer<typeof policySetSchema>;

export const ROUTE_METHODS = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"] as const;

/** `METHOD /path-template`, as the operation stands in the API's OpenAPI document. */
export const routeKeySchema = z
  .string()
  .max(2_100)
  .regex(new RegExp(`^(${ROUTE_METHODS.join("|")}) /\\S*$`), 'Name a route as "METHOD /path-template", e.g. "GET /v1/items/{id}"');

/** An API's policies: those of every route, and each named route's own, which replace the API's of the same name. */
export const apiPoliciesSchema = z
  .object({
    policies: policySetSchema.optional(),
    routes: z.record(routeKeySchema, policySetSchema).optional(),
  })
  .strict();

export type ApiPolicies = z.infer<typeof apiPoliciesSchema>;

export const NO_POLICIES: ApiPolicies = {};

/** The route key of a call: its method and the document's template it matched. */
export function routeKey(method: string, template: string): string {
  return `${method} ${template}`;
}

/**
 * The policies that apply to a call of `method` on `template`: the route's own, else the
 * API's. A HEAD call takes the GET operation's policies when the document declares no HEAD.
 */
export function policiesFor(policies: ApiPolicies, method: string, template: string | undefined): PolicySet {
  const routes = policies.routes;
  const own =
    template === undefined || routes === undefined
      ? undefined
      : (routes[routeKey(method, template)] ?? (method === "HEAD" ? routes[routeKey("GET", template)] : undefined));
  if (!own) return policies.policies ?? {};
  return { ...policies.policies, ...own };
}
