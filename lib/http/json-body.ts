import type { IncomingRequest } from "./message";
import { problem, type ProblemError, validationProblem } from "./problem";
import { readBody } from "./read-body";

/** Bodies of the built-in APIs and /api/v1 larger than this are refused with 413. */
export const MAX_BODY_BYTES = 64 * 1024;

function payloadTooLarge(maxBytes: number): ProblemError {
  return problem("payload-too-large", { detail: `The request body exceeds ${maxBytes} bytes.` });
}

function isJsonMediaType(contentType: string | null): boolean {
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
  return mediaType === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/** The whole request body: 413 past `maxBytes`, 400 when it did not arrive whole. */
export async function readWholeBody(request: IncomingRequest, maxBytes: number): Promise<Buffer> {
  const read = await readBody(request, maxBytes);
  if (read.ok) return read.bytes;
  throw read.reason === "too-large" ? payloadTooLarge(maxBytes) : problem("malformed-request", { detail: "The request body did not arrive whole." });
}

/**
 * The request body parsed as JSON, or undefined when there is none: 413 past `maxBytes`,
 * 400 when it did not arrive whole or is not JSON (UTF-8).
 */
export async function readJson(request: IncomingRequest, maxBytes: number): Promise<unknown> {
  const bytes = await readWholeBody(request, maxBytes);
  if (bytes.length === 0) return undefined;
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw validationProblem([{ in: "body", field: "", message: "is not valid JSON" }]);
  }
}

/** A JSON object from the request body: 415 for other media types, 413 when too large, 400 when malformed. */
export async function readJsonObject(request: IncomingRequest, maxBytes = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  if (!isJsonMediaType(request.headers.get("content-type"))) {
    throw problem("unsupported-media-type", {
      detail: "Send the body as application/json.",
      headers: { accept: "application/json" },
    });
  }
  const parsed = await readJson(request, maxBytes);
  if (parsed === undefined) throw validationProblem([{ in: "body", field: "", message: "is not valid JSON" }]);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw validationProblem([{ in: "body", field: "", message: "must be a JSON object" }]);
  }
  return parsed as Record<string, unknown>;
}
