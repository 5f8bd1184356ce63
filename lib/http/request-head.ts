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

/**
 * What the checks read of the raw fields, in one pass: `name: value` and its line end for each
 * field, as the client sent them, and the value of each Host field (Node keeps only the first
 * of two, and `headersDistinct` would copy every field on each request).
 */
function rawFields(rawHeaders: readonly string[]): { bytes: number; hosts: string[] } {
  let bytes = 0;
  const hosts: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    const value = rawHeaders[i + 1]!;
    bytes += name.length + value.length + 4;
    if (name.length === 4 && name.toLowerCase() === "host") hosts.push(value);
  }
  return { bytes, hosts };
}

function limitExceeded(req: IncomingMessage, target: string, headerBytes: number): ProblemError | undefined {
  // Method, target and version: `GET /x HTTP/1.1`, as the request line sent them.
  if ((req.method ?? "").length + target.length + 10 > MAX_REQUEST_LINE) {
    return problem("uri-too-long", { detail: "The request line is longer than the server reads (8 KiB)." });
  }
  if (headerBytes > MAX_HEADER_FIELDS) {
    return problem("headers-too-large", { detail: "The request's header fields are larger than the server reads (16 KiB in all)." });
  }
  return undefined;
}

/** A Host field's value: a host name (empty for a target without one), IPv4 address or bracketed IP literal, with an optional port (RFC 9110 §7.2). */
const HOST = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=%]*|\[[0-9A-Fa-f:.]+\])(?::\d*)?$/;

/**
 * RFC 9112 §3.2: a server answers 400 to an HTTP/1.1 request without a Host field, and to any
 * request with more than one or with an invalid one. Two hosts are two readings of one
 * request, which a proxy and its upstream may each take differently.
 */
function hostRefusal(req: IncomingMessage, hosts: readonly string[]): ProblemError | undefined {
  if (hosts.length > 1) return problem("malformed-request", { detail: `The request has ${hosts.length} Host fields; send one.` });
  const [host] = hosts;
  if (host === undefined) {
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 0) return undefined;
    return problem("malformed-request", { detail: "The request has no Host field; an HTTP/1.1 request names its host in one." });
  }
  if (!HOST.test(host)) return problem("malformed-request", { detail: "The request's Host field is not a host name or address with an optional port." });
  return undefined;
}

/**
 * What the server checks of a request before it routes it: a method served somewhere, the
 * size limits, one valid Host field, and a path it can make canonical. Returns the request target with its path
 * canonical, which is what routing and every later reader see; throws the refusal.
 */
export function checkedTarget(req: IncomingMessage): string {
  const target = req.url ?? "/";
  const fields = rawFields(req.rawHeaders);
  const refusal = methodNotServed(req.method ?? "") ?? limitExceeded(req, target, fields.bytes) ?? hostRefusal(req, fields.hosts);
  if (refusal) throw refusal;
  const query = target.indexOf("?");
  const path = query === -1 ? target : target.slice(0, query);
  const canonical = canonicalPath(path);
  return canonical === path ? target : canonical + target.slice(path.length);
}
