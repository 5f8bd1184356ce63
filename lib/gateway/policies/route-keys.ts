import { declaredOperations } from "../../api-lifecycle/versions";
import type { ApiPolicies } from "./policy-set";

/** A version's name and OpenAPI document (JSON text), whose operations a route key may name. */
export type VersionDocument = { version: string; openapiDocument: string | null };

/** A route key that names no operation, and why, in words short enough for any list of errors. */
export type UnknownRoute = { key: string; message: string };

/**
 * The route keys that name no operation (method and path template) of any of the documents.
 * A HEAD key may name a GET operation: the gateway answers HEAD on a path that declares GET.
 */
export function unknownRoutes(policies: ApiPolicies, versions: readonly VersionDocument[]): UnknownRoute[] {
  const keys = Object.keys(policies.routes ?? {});
  if (keys.length === 0) return [];
  const declared = new Set(versions.flatMap((version) => [...(declaredOperations(version.openapiDocument) ?? [])]));
  const named = versions.filter((version) => version.openapiDocument).map((version) => version.version);
  const where = named.length === 0 ? "the API has no OpenAPI document to name it" : `no document of ${named.join(", ")} declares it`;
  return keys
    .filter((key) => !declared.has(key) && !(key.startsWith("HEAD ") && declared.has(`GET ${key.slice(5)}`)))
    .map((key) => ({ key, message: `"${key}" names no operation: ${where}` }));
}
