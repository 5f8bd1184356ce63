import type { IncomingRequest } from "./message";
import { problem, validationProblem } from "./problem";
import { readBody } from "./read-body";

/** HTML forms of the portal are small; past this a body is refused with 413. */
export const MAX_FORM_BYTES = 64 * 1024;

/** An HTML form's fields (application/x-www-form-urlencoded): 415 for other media types, 413 when too large, 400 for a repeated field. */
export async function readForm(request: IncomingRequest, maxBytes = MAX_FORM_BYTES): Promise<Record<string, string>> {
  const mediaType = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType !== "application/x-www-form-urlencoded") {
    throw problem("unsupported-media-type", {
      detail: "Send the form as application/x-www-form-urlencoded.",
      headers: { accept: "application/x-www-form-urlencoded" },
    });
  }
  const read = await readBody(request, maxBytes);
  if (!read.ok) {
    throw read.reason === "too-large"
      ? problem("payload-too-large", { detail: `The request body exceeds ${maxBytes} bytes.` })
      : problem("malformed-request", { detail: "The request body did not arrive whole." });
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(read.bytes.toString("utf8"))) {
    if (Object.hasOwn(fields, name)) throw validationProblem([{ in: "body", field: name, message: "is repeated" }]);
    fields[name] = value;
  }
  return fields;
}
