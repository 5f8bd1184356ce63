import type { PlainResponse } from "../http/message";
import { validationProblem } from "../http/problem";

/** Query parameters as an object; a repeated parameter is ambiguous, so it is a 400 naming it. */
export function queryObject(url: URL): Record<string, string> {
  const result: Record<string, string> = {};
  const repeated = new Set<string>();
  for (const [name, value] of url.searchParams) {
    if (Object.hasOwn(result, name)) repeated.add(name);
    result[name] = value;
  }
  if (repeated.size > 0) {
    throw validationProblem([...repeated].map((field) => ({ in: "query" as const, field, message: "is given more than once" })));
  }
  return result;
}

/** A 200 answer of this API. */
export function jsonResponse(body: unknown, headers: Record<string, string> = {}): PlainResponse {
  return serializedJsonResponse(JSON.stringify(body), headers);
}

/** A 200 whose JSON body is already serialized. */
export function serializedJsonResponse(json: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}): PlainResponse {
  return { status: 200, headers: { "content-type": "application/json", "cache-control": "private, no-cache", ...headers }, body: json };
}
