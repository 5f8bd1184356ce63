import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

/** Methods Node's HTTP parser accepts but a Fetch `Request` refuses to carry (it throws). */
const FETCH_FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

export function isFetchMethod(method: string | undefined): boolean {
  return !FETCH_FORBIDDEN_METHODS.has((method ?? "").toUpperCase());
}

/** A Fetch `Request` for a Node request, addressed at `origin`. Bodies stream, unread. */
export function toFetchRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: hasBody ? "half" : undefined,
  } as RequestInit);
}

/** Resolves when `res` drains or closes, leaving no listener behind. */
function writable(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.on("drain", done).on("close", done);
  });
}

/** Writes a Fetch `Response` to a Node response, streaming its body. */
export async function sendFetchResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(response.status, response.statusText, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // A reader loop costs fewer promises per chunk than async iteration; most bodies are one chunk.
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // Respect backpressure so a slow client does not make a proxied download pile up in memory.
    if (!res.write(value)) await writable(res);
    if (res.destroyed) {
      await reader.cancel().catch(() => undefined);
      return;
    }
  }
  res.end();
}
