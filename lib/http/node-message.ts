import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { HeaderReader, IncomingRequest, PlainResponse } from "./message";

/** Node's parsed headers, read the way Fetch `Headers` reads them: repeated fields joined with ", ". */
class NodeHeaders implements HeaderReader {
  constructor(private readonly fields: NodeJS.Dict<string[]>) {}

  get(name: string): string | null {
    return this.fields[name.toLowerCase()]?.join(", ") ?? null;
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, values] of Object.entries(this.fields)) if (values) callback(values.join(", "), name);
  }
}

export function nodeHeaders(req: IncomingMessage): HeaderReader {
  return new NodeHeaders(req.headersDistinct);
}

/** HTTP/1.1 framing (RFC 9112 §6.3): without Content-Length or Transfer-Encoding there is no body. */
function carriesBody(req: IncomingMessage): boolean {
  if (req.method === "GET" || req.method === "HEAD") return false;
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = req.headers["content-length"];
  return length !== undefined && length !== "0";
}

class NodeRequest implements IncomingRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderReader;
  readonly remoteAddress: string | undefined;
  #body: ReadableStream<Uint8Array> | null | undefined;

  constructor(private readonly req: IncomingMessage, origin: string) {
    this.method = req.method ?? "GET";
    this.url = `${origin}${req.url ?? "/"}`;
    this.headers = nodeHeaders(req);
    this.remoteAddress = req.socket.remoteAddress;
  }

  /** Only a caller that streams the body (the proxy) pays for the web stream. */
  get body(): ReadableStream<Uint8Array> | null {
    this.#body ??= carriesBody(this.req) ? (Readable.toWeb(this.req) as ReadableStream<Uint8Array>) : null;
    return this.#body;
  }

  bodyChunks(): AsyncIterable<Uint8Array> | null {
    return carriesBody(this.req) ? this.req : null;
  }
}

/** The request as the gateway reads it, addressed at `origin` (scheme, host and port only). */
export function nodeRequest(req: IncomingMessage, origin: string): IncomingRequest {
  return new NodeRequest(req, origin);
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

async function pipeBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  // A reader loop costs fewer promises per chunk than async iteration; most bodies are one chunk.
  const reader = body.getReader();
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

/** Writes a plain response to Node; bodies in memory go out in one write with their length. */
export async function writePlainResponse(response: PlainResponse, res: ServerResponse): Promise<void> {
  const { status, headers, body } = response;
  if (typeof body === "string" || body instanceof Uint8Array) {
    const length = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
    res.writeHead(status, { ...headers, "content-length": length }).end(body);
    return;
  }
  res.writeHead(status, headers);
  if (body === null) res.end();
  else await pipeBody(body, res);
}
