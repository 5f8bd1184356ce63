import { problem, type ProblemError } from "./problem";

/** Node's parser also passes TRACE, TRACK, PROPFIND and the like; neither the gateway nor the portal serves them. */
const SERVED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** 405 `method-not-allowed` with `Allow` for a method served nowhere; undefined for one that is served somewhere. */
export function methodNotServed(method: string): ProblemError | undefined {
  if (SERVED_METHODS.has(method)) return undefined;
  return problem("method-not-allowed", {
    detail: `Gatehouse does not serve ${method.slice(0, 20)} requests.`,
    headers: { allow: [...SERVED_METHODS].join(", ") },
  });
}
