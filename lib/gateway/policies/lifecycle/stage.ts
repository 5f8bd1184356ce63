import { problem, ProblemError } from "../../../http/problem";
import { PASS, type Stage } from "../../pipeline";
import { type Deprecation, type GatewayVersion, type GatewayVersions, operationKey } from "../../versions";

/** The earlier of two deprecations' dates, and the earlier sunset either sets. */
function combine(a: Deprecation | undefined, b: Deprecation | undefined): Deprecation | undefined {
  if (!a || !b) return a ?? b;
  const sunsets = [a.sunsetAt, b.sunsetAt].filter((at) => at !== null);
  return { deprecatedAt: Math.min(a.deprecatedAt, b.deprecatedAt), sunsetAt: sunsets.length > 0 ? Math.min(...sunsets) : null };
}

/** Whether the lifecycle can change a call to `version`: it is retired, deprecated, or has a deprecated operation. */
export function hasLifecycle(version: GatewayVersion): boolean {
  return version.status === "retired" || version.deprecation !== undefined || version.operations.size > 0;
}

/** What applies to a call: the version's deprecation, combined with its operation's (`operationKey`) when the route is known. */
export function deprecationOf(version: GatewayVersion, operation: string | undefined): Deprecation | undefined {
  return combine(version.deprecation, operation === undefined ? undefined : version.operations.get(operation));
}

/** Where the portal documents a version: the page its `Link` headers point to. */
export function versionPageUrl(publicUrl: string, apiSlug: string, version: string): string {
  return `${publicUrl}/apis/${encodeURIComponent(apiSlug)}?version=${encodeURIComponent(version)}`;
}

/**
 * `Deprecation` (RFC 9745, `@` and epoch seconds), `Sunset` (RFC 8594, an HTTP-date) and
 * their `Link`s, both to the version's page in the portal.
 */
export function deprecationHeaders(deprecation: Deprecation, pageUrl: string): Record<string, string> {
  const headers: Record<string, string> = { deprecation: `@${Math.floor(deprecation.deprecatedAt / 1000)}` };
  const links = [`<${pageUrl}>; rel="deprecation"`];
  if (deprecation.sunsetAt !== null) {
    headers.sunset = new Date(deprecation.sunsetAt).toUTCString();
    links.push(`<${pageUrl}>; rel="sunset"`);
  }
  headers.link = links.join(", ");
  return headers;
}

/** Adds the lifecycle headers to an answer, keeping the `Link`s the upstream sent. */
export function addDeprecationHeaders(target: Record<string, string | string[]>, headers: Record<string, string>): void {
  const { link, ...rest } = headers;
  Object.assign(target, rest);
  const existing = target.link;
  target.link = existing === undefined ? link! : [...(Array.isArray(existing) ? existing : [existing]), link!];
}

const past = (at: number | null | undefined, now: number) => at != null && at <= now;

/**
 * 410 `api-version-retired` for a version retired or past its sunset, or an operation past
 * its own, naming the current version and its page in the portal; undefined while it is served.
 */
export function retiredRefusal(input: {
  apiSlug: string;
  version: GatewayVersion;
  /** `GET /v1/orders/{id}`, once the route is known */
  operation?: string;
  versions: GatewayVersions;
  publicUrl: string;
  now: number;
}): ProblemError | undefined {
  const { apiSlug, version, operation, versions, publicUrl, now } = input;
  const versionGone = version.status === "retired" || past(version.deprecation?.sunsetAt, now);
  if (!versionGone && !(operation !== undefined && past(version.operations.get(operation)?.sunsetAt, now))) return undefined;
  const successor = versions.current && versions.current !== version ? versions.current.version : undefined;
  const successorUrl = successor ? versionPageUrl(publicUrl, apiSlug, successor) : undefined;
  const what = versionGone ? `Version ${version.version} of "${apiSlug}"` : `${operation} of "${apiSlug}" ${version.version}`;
  return problem("api-version-retired", {
    detail: `${what} is retired.${successor ? ` Its successor is ${successor}: ${successorUrl}` : ""}`,
    extensions: successor ? { successor, successorUrl } : {},
  });
}

/** What a version's life does to a call: the headers every answer to it carries, and the 410 once it is gone. */
export type LifecycleDecision = {
  /** `Deprecation`, `Sunset` and `Link` of a deprecated version or operation */
  deprecation: Record<string, string> | undefined;
  refusal: ProblemError | undefined;
};

const UNAFFECTED: LifecycleDecision = { deprecation: undefined, refusal: undefined };

/**
 * The lifecycle of one call, decided once: the version's deprecation and retirement, and,
 * when the call's route is known, its operation's too.
 */
export function lifecycleDecision(input: {
  api: { slug: string; versions: GatewayVersions };
  version: GatewayVersion | undefined;
  method: string;
  /** the template the call matched; undefined when it matched none */
  route: string | undefined;
  publicUrl: string;
  now: number;
}): LifecycleDecision {
  const { api, version, publicUrl } = input;
  // Most calls go to a current version with nothing deprecated: no key to build, no date to read.
  if (!version || !hasLifecycle(version)) return UNAFFECTED;
  const operation = input.route === undefined ? undefined : operationKey(input.method, input.route);
  const deprecation = deprecationOf(version, operation);
  return {
    deprecation: deprecation && deprecationHeaders(deprecation, versionPageUrl(publicUrl, api.slug, version.version)),
    refusal: retiredRefusal({ apiSlug: api.slug, version, operation, versions: api.versions, publicUrl, now: input.now }),
  };
}

/**
 * The lifecycle's stage, once the call's version and route are known and before its caller is:
 * a built-in call's route is its operation's, matched already, whose 404 or 405 waits for authorization.
 */
export function createLifecycleStage(publicUrl: string): Stage {
  return ({ request, at }) => {
    if (at.kind === "token-service" || !at.version || !hasLifecycle(at.version)) return PASS;
    const route = at.kind === "proxied" ? at.route : at.operation instanceof ProblemError ? undefined : at.operation.route.path;
    return lifecycleDecision({ api: at.api, version: at.version, method: request.method, route, publicUrl, now: Date.now() });
  };
}
