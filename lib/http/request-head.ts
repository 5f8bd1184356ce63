import type { IncomingMessage } from "node:http";
import { canonicalPath } from "./canonical-path";
import { problem, type ProblemError } from "./problem";
import { methodNotServed } from "./served-methods";

/** DESIGN §6: a request line up to 8 KiB, header fields up to 16 KiB in all. */
export const MAX_REQUEST_LINE = 8 * 1024;
const MAX_HEADER_FIELDS = 16 * 1024;
/**
 * Node's own limit counts the target, names and values but no separators, so it is set
 * where only a request over one of ours reaches it; ours are counted as the bytes sent.
 */
export const PARSER_HEADER_LIMIT = MAX_REQUEST_LINE + MAX_HEADER_FIELDS;

/** `name: value` and its line end for each field, as the client sent them. */
function headerFieldBytes(rawHeaders: readonly string[]): number {
  let bytes = 0;
  for (const field of rawHeaders) bytes += field.length + 2;
  return bytes;
}

function limitExceeded(req: IncomingMessage, target: string): ProblemError | undefined {
  // Method, target and version: `GET /x HTTP/1.1`, as the request line sent them.
  if ((req.method ?? "").length + target.length + 10 > MAX_REQUEST_LINE) {
    return problem("uri-too-long", { detail: "The request line is longer than the server reads (8 KiB)." });
  }
  if (headerFieldBytes(req.rawHeaders) > MAX_HEADER_FIELDS) {
    return problem("headers-too-large", { detail: "The request's header fields are larger than the server reads (16 KiB in all)." });
  }
  return undefined;
}

/**
 * What the server checks of a request before it routes it: a method served somewhere, the
 * size limits, and a path it can make canonical. Returns the request target with its path
 * canonical, which is what routing and every later reader see; throws the refusal.
 */
export function checkedTarget(req: IncomingMessage): string {
  const target = req.url ?? "/";
  const refusal = methodNotServed(req.method ?? "") ?? limitExceeded(req, target);
  if (refusal) throw refusal;
  const query = target.indexOf("?");
  const path = query === -1 ? target : target.slice(0, query);
  const canonical = canonicalPath(path);
  return canonical === path ? target : canonical + target.slice(path.length);
}
