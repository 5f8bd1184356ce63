import type { ApiVersionStatus } from "../generated/prisma/sqlite/enums";
import { problem } from "../http/problem";
import type { PathTemplates } from "./path-templates";
import type { DocumentValidators } from "./policies/request-validation/compile";

/** When something was (or will be) deprecated, and when it goes away; times in epoch milliseconds. */
export type Deprecation = { deprecatedAt: number; sunsetAt: number | null };

/** A version of an API as the gateway serves it. */
export type GatewayVersion = {
  /** the `ApiVersion` row's id */
  id: string;
  version: string;
  status: ApiVersionStatus;
  /** set when the version is deprecated (status `deprecated`, or a date given) */
  deprecation: Deprecation | undefined;
  /** the templates of its document's paths; undefined without a document */
  routes: PathTemplates | undefined;
  /** its document's operations' request validators, compiled once a policy of its API validates requests; undefined before */
  validators?: DocumentValidators;
  /** deprecated operations, by `METHOD /path/template` */
  operations: ReadonlyMap<string, Deprecation>;
};

/** The versions of an API, by path segment, and the one a path without a version segment goes to. */
export type GatewayVersions = { bySegment: ReadonlyMap<string, GatewayVersion>; current: GatewayVersion | undefined };

/** The version a segment spells otherwise (`V1`, `v1;x=1`): one an upstream that ignores case or drops parameters would serve. */
function otherSpelling(versions: GatewayVersions, segment: string): string | undefined {
  const bare = segment.split(";", 1)[0]!.toLowerCase();
  if (bare === segment) return undefined;
  for (const name of versions.bySegment.keys()) if (name.toLowerCase() === bare) return name;
  return undefined;
}

/**
 * The version a call goes to: the one its first path segment names exactly (`/v2/orders`
 * is `v2`), otherwise the current one. The segment stays in the path forwarded upstream.
 * Another spelling of a version's segment is refused (docs/decisions/043).
 */
export function selectVersion(versions: GatewayVersions, remainder: string): GatewayVersion | undefined {
  const end = remainder.indexOf("/", 1);
  const segment = end === -1 ? remainder.slice(1) : remainder.slice(1, end);
  const version = versions.bySegment.get(segment);
  if (version) return version;
  const spelled = otherSpelling(versions, segment);
  if (spelled !== undefined) {
    throw problem("malformed-path", { detail: `A version is named by its segment exactly: ${spelled}, in lower case and without ;parameters.` });
  }
  return versions.current;
}

export function operationKey(method: string, route: string): string {
  return `${method === "HEAD" ? "GET" : method} ${route}`;
}
