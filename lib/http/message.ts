import { PassThrough, Readable } from "node:stream";
import type { ProblemError } from "./problem-error";

/** Read access to request headers; names are matched case-insensitively. */
export type HeaderReader = {
  get(name: string): string | null;
  forEach(callback: (value: string, name: string) => void): void;
};

/** A request body read whole, or why it was not: past the reader's limit, or ended early by the client or the HTTP parser. */
export type BodyRead = { ok: true; bytes: Buffer } | { ok: false; reason: "too-large" | "incomplete" };

/**
 * What the gateway reads of a request. A Fetch `Request` is one, so the Next
 * route passes its own; `server.ts` passes a view of the Node request that
 * costs no Fetch objects (see docs/decisions/005).
 */
export type IncomingRequest = {
  readonly method: string;
  /** absolute URL */
  readonly url: string;
  readonly headers: HeaderReader;
  /** null when the request carries no body */
  readonly body: ReadableStream<Uint8Array> | null;
  /** the body as Node delivers it, for a reader that wants all of it without the cost of a web stream; a Fetch `Request` has none */
  bodyChunks?(): AsyncIterable<Uint8Array> | null;
  /** the whole body in one read, cheaper than iterating `bodyChunks`; `readBody` (read-body.ts) uses it where it is there */
  wholeBody?(maxBytes: number): Promise<BodyRead>;
  /** the socket's peer; absent behind Next, which reports it in X-Forwarded-For */
  readonly remoteAddress?: string;
  /** the MCP server whose tool call this request is, set in process only (lib/gateway/mcp): where an agent's token for that server is accepted */
  readonly mcpResource?: string;
  /** what the HTTP parser answered when it refused the rest of the request (broken chunked framing, a timeout); a Fetch `Request` cannot tell */
  bodyRefusal?(): ProblemError | undefined;
};

/** Where a streamed body is written: a Node `ServerResponse`, or any Node writable stream. */
export type BodySink = {
  write(chunk: Uint8Array): boolean;
  end(chunk?: Uint8Array): void;
  destroy(error?: Error): void;
  on(event: "drain" | "close", listener: () => void): unknown;
  readonly destroyed: boolean;
  /** bytes written but not yet sent */
  readonly writableLength: number;
};

/** How a streamed body ended: sent whole, broken off by its source, or left by the client. */
export type BodyEnd = "whole" | "broken" | "abandoned";

/** A body that arrives over time (a proxied answer), written into the sink it is given with its backpressure. */
export type StreamedBody = { pipeTo(sink: BodySink): void; readonly ended?: Promise<BodyEnd> };

/** A response as plain data, so that writing it to Node creates no Fetch objects. Header names are lower case. */
export type PlainResponse = {
  status: number;
  headers: Record<string, string | string[]>;
  body: string | Uint8Array<ArrayBuffer> | StreamedBody | null;
};

/** The web stream is made before the body is piped, so that a body that fails at once errors it rather than the Node stream alone. */
function webStream(body: StreamedBody): ReadableStream<Uint8Array> {
  const stream = new PassThrough();
  const web = Readable.toWeb(stream) as ReadableStream<Uint8Array>;
  body.pipeTo(stream);
  return web;
}

export function jsonPlainResponse(status: number, body: unknown, headers: Record<string, string> = {}): PlainResponse {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** The Fetch `Response` for a plain one, for doors that speak Fetch (Next route handlers). */
export function toFetchResponse(response: PlainResponse): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    for (const each of Array.isArray(value) ? value : [value]) headers.append(name, each);
  }
  const { body: plain } = response;
  const body = plain === null || typeof plain === "string" || plain instanceof Uint8Array ? plain : webStream(plain);
  return new Response(body, { status: response.status, headers });
}
