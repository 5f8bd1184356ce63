import type { IncomingRequest } from "../http/message";
import { readBody } from "../http/read-body";
import { OAuthError } from "./oauth-error";

/** RFC 6749 requests are small; anything larger is refused before it is read. */
export const MAX_BODY_BYTES = 16 * 1024;

function tooLarge(): OAuthError {
  return new OAuthError("invalid_request", `The request body is larger than ${MAX_BODY_BYTES} bytes.`, { status: 413 });
}

async function readText(request: IncomingRequest): Promise<string> {
  const read = await readBody(request, MAX_BODY_BYTES);
  if (!read.ok) throw read.reason === "too-large" ? tooLarge() : new OAuthError("invalid_request", "The request body did not arrive whole.");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(read.bytes);
  } catch {
    throw new OAuthError("invalid_request", "The request body is not valid UTF-8.");
  }
}

function parseForm(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, name)) throw new OAuthError("invalid_request", `The parameter "${name}" is repeated.`);
    fields[name] = value;
  }
  return fields;
}

function parseJson(text: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new OAuthError("invalid_request", "The request body is not valid JSON.");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new OAuthError("invalid_request", "The JSON body must be an object of string fields.");
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== "string") throw new OAuthError("invalid_request", `The field "${name}" must be a string.`);
    fields[name] = value;
  }
  return fields;
}

/** The fields of a form-urlencoded (or JSON) OAuth request body. */
export async function readOAuthFields(request: IncomingRequest): Promise<Record<string, string>> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "application/x-www-form-urlencoded" && mediaType !== "application/json") {
    throw new OAuthError("invalid_request", "Send the parameters as application/x-www-form-urlencoded (or application/json).");
  }
  const text = await readText(request);
  return mediaType === "application/json" ? parseJson(text) : parseForm(text);
}
