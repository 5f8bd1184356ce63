import type { BodyRead, IncomingRequest } from "./message";

/**
 * The whole request body, through the request's own `wholeBody` where it has one (a Node
 * request), else by iterating its stream. Refused as too large by its Content-Length before
 * anything is read, or as soon as the bytes read pass `maxBytes`; incomplete when the client
 * or the HTTP parser ended it early, in which case the connection is gone and no answer
 * reaches the client, but the request is still recorded as the client's error rather than
 * the server's.
 */
export async function readBody(request: IncomingRequest, maxBytes: number): Promise<BodyRead> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) return { ok: false, reason: "too-large" };
  if (request.wholeBody) return request.wholeBody(maxBytes);
  const source = request.bodyChunks?.() ?? (request.body as AsyncIterable<Uint8Array> | null);
  if (!source) return { ok: true, bytes: Buffer.alloc(0) };
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size > maxBytes) return { ok: false, reason: "too-large" };
      chunks.push(chunk);
    }
  } catch {
    return { ok: false, reason: "incomplete" };
  }
  return { ok: true, bytes: Buffer.concat(chunks) };
}
