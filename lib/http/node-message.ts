import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { parserRefusal } from "./client-error";
import { lingeringClose } from "./lingering-close";
import type { BodyRead, HeaderReader, IncomingRequest, PlainResponse } from "./message";
import { readNodeBody } from "./node-body";
import type { ProblemError } from "./problem";

function joined(values: readonly string[]): string {
  return values.length === 1 ? values[0]! : values.join(", ");
}

/** Node's parsed headers, read the way Fetch `Headers` reads them: repeated fields joined with ", ". */
class NodeHeaders implements HeaderReader {
  constructor(private readonly fields: NodeJS.Dict<string[]>) {}

  get(name: string): string | null {
    const values = this.fields[name.toLowerCase()];
    return values ? joined(values) : null;
  }

  forEach(callback: (value: string, name: string) => void): void {
    for (const name in this.fields) {
      const values = this.fields[name];
      if (values) callback(joined(values), name);
    }
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

  constructor(
    private readonly req: IncomingMessage,
    origin: string,
  ) {
    this.method = req.method ?? "GET";
    this.url = `${origin}${req.url ?? "/"}`;
    this.headers = nodeHeaders(req);
    this.remoteAddress = req.socket.remoteAddress;
  }

  /** The gateway's readers take `bodyChunks`; the web stream is made only for a caller that asks for this one. */
  get body(): ReadableStream<Uint8Array> | null {
    this.#body ??= carriesBody(this.req) ? (Readable.toWeb(this.req) as ReadableStream<Uint8Array>) : null;
    return this.#body;
  }

  bodyChunks(): AsyncIterable<Uint8Array> | null {
    return carriesBody(this.req) ? this.req : null;
  }

  wholeBody(maxBytes: number): Promise<BodyRead> {
    return carriesBody(this.req) ? readNodeBody(this.req, maxBytes) : Promise.resolve({ ok: true, bytes: Buffer.alloc(0) });
  }

  bodyRefusal(): ProblemError | undefined {
    return parserRefusal(this.req.socket);
  }
}

/** The request as the gateway reads it, addressed at `origin` (scheme, host and port only). */
export function nodeRequest(req: IncomingMessage, origin: string): IncomingRequest {
  return new NodeRequest(req, origin);
}

/**
 * Closes the connection of an answer given before the request's body arrived (an early 413 or
 * 401), which Node would otherwise keep reading to its declared end, however far, to reuse it.
 * The close lingers (`lingering-close.ts`), so that the client reads the answer.
 */
function closeAfterAnswer(res: ServerResponse): void {
  const socket = res.socket;
  if (!socket) return;
  res.setHeader("connection", "close");
  // Node calls this once the answer is out, for an answer that says `Connection: close`.
  socket.destroySoon = () => lingeringClose(socket);
}

/** Writes a plain response to Node; bodies in memory go out in one write with their length, streamed ones as they come. */
export function writePlainResponse(response: PlainResponse, res: ServerResponse): void {
  const { status, headers, body } = response;
  if (typeof body === "string" || body instanceof Uint8Array) {
    const length = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
    if (!res.req.complete && carriesBody(res.req)) closeAfterAnswer(res);
    res.writeHead(status, Object.assign({}, headers, { "content-length": length })).end(body);
    return;
  }
  res.writeHead(status, headers);
  if (body === null) res.end();
  else body.pipeTo(res);
}
