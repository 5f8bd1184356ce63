import { STATUS_CODES } from "node:http";
import type { PlainResponse } from "./message";

/**
 * A response with its body in memory as raw HTTP/1.1 bytes, for a connection no
 * `ServerResponse` owns: one Node's parser gave up on, or one handed over for an Upgrade.
 * The connection is closed after it.
 */
export function rawResponse(response: PlainResponse & { body: string | null }): string {
  const text = response.body ?? "";
  const fields = { ...response.headers, "x-content-type-options": "nosniff", "content-length": String(Buffer.byteLength(text)), connection: "close" };
  const head = Object.entries(fields).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((each) => `${name}: ${each}`));
  return [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ""}`, ...head, "", text].join("\r\n");
}
