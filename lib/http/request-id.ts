import { randomUUID } from "node:crypto";
import type { HeaderReader } from "./message";

export const MAX_REQUEST_ID_LENGTH = 128;
const SANE_REQUEST_ID = new RegExp(`^[A-Za-z0-9._:-]{1,${MAX_REQUEST_ID_LENGTH}}$`);

/**
 * A fresh request id, for requests that carry no usable one: the time in milliseconds,
 * then 80 random bits (a UUID's, without its version and variant digits), as 32 hex
 * digits. Ids that grow with time are added at the end of the request log's index on
 * them; random ones landed all over it, and the request-log worker's inserts took
 * 29–33 µs a row instead of 17–18 (decision 007, "The request log").
 */
export function newRequestId(): string {
  // The random bits come from randomUUID, which draws on a pool; randomBytes asked the system each time.
  // Its form is xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: the slices skip the dashes, the version and the variant.
  const uuid = randomUUID();
  return `req_${Date.now().toString(16).padStart(12, "0")}${uuid.slice(0, 8)}${uuid.slice(9, 13)}${uuid.slice(15, 18)}${uuid.slice(20, 23)}${uuid.slice(24, 26)}`;
}

/** Echoes a caller's request id when it is harmless to log and reflect, else mints one. */
export function requestIdFrom(headers: Pick<HeaderReader, "get">): string {
  const incoming = headers.get("x-request-id");
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : newRequestId();
}
