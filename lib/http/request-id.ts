import { randomUUID } from "node:crypto";
import type { HeaderReader } from "./message";

export const MAX_REQUEST_ID_LENGTH = 128;
const SANE_REQUEST_ID = new RegExp(`^[A-Za-z0-9._:-]{1,${MAX_REQUEST_ID_LENGTH}}$`);

/** A fresh request id, for requests that carry no usable one. */
export function newRequestId(): string {
  return `req_${randomUUID().replaceAll("-", "")}`;
}

/** Echoes a caller's request id when it is harmless to log and reflect, else mints one. */
export function requestIdFrom(headers: Pick<HeaderReader, "get">): string {
  const incoming = headers.get("x-request-id");
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : newRequestId();
}
