import type { IncomingRequest, PlainResponse } from "../http/message";
import { problem, type ProblemError, validationProblem } from "../http/problem";
import { readBody } from "../http/read-body";

/** PUT bodies larger than this are refused with 413. */
export const MAX_BODY_BYTES = 64 * 1024;

function payloadTooLarge(): ProblemError {
  return problem("payload-too-large", { detail: `The request body exceeds ${MAX_BODY_BYTES} bytes.` });
}

function isJsonMediaType(contentType: string | null): boolean {
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return mediaType === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** A JSON object from the request body: 415 for other media types, 413 when too large, 400 when malformed. */
export async function readJsonObject(request: IncomingRequest): Promise<Record<string, unknown>> {
  if (!isJsonMediaType(request.headers.get("content-type"))) {
    throw problem("unsupported-media-type", {
      detail: "Send the body as application/json.",
      headers: { accept: "application/json" },
    });
  }
  const read = await readBody(request, MAX_BODY_BYTES);
  if (!read.ok) throw read.reason === "too-large" ? payloadTooLarge() : problem("malformed-request", { detail: "The request body did not arrive whole." });
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(read.bytes));
  } catch {
    throw validationProblem([{ in: "body", field: "", message: "is not valid JSON" }]);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw validationProblem([{ in: "body", field: "", message: "must be a JSON object" }]);
  }
  return parsed as Record<string, unknown>;
}

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
