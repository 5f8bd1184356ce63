import type { Dispatcher } from "undici";
import type { BodyEnd, BodySink, StreamedBody } from "../../../http/message";

export type UpstreamAnswer = { statusCode: number; headers: Record<string, string | string[] | undefined>; body: UpstreamExchange };

/**
 * Bytes a client may have waiting, unsent, before the upstream is paused: what one slow
 * client can hold in the gateway. Node's own 16 KiB mark would pause and resume the
 * upstream on nearly every 64 KiB chunk it delivers. The same bound holds while the
 * answer's headers are on their way.
 */
const WAITING_LIMIT = 256 * 1024;

/**
 * Writes an answer that arrived whole with its headers, as small ones do: a single
 * chunk goes out with them in one write.
 */
function endWith(sink: BodySink, chunks: readonly Buffer[]): void {
  if (chunks.length === 1) return sink.end(chunks[0]);
  for (const chunk of chunks) sink.write(chunk);
  sink.end();
}

/** Why the upstream request is ended when the client is gone. */
class ClientGone extends Error {}

/** An answer whose status HTTP has no meaning for (RFC 9110 §15: 100–599); it is not passed on. */
export class InvalidStatus extends Error {
  constructor(readonly statusCode: number) {
    super(`the upstream answered with status ${statusCode}`);
  }
}

/**
 * One request to an upstream, as undici's dispatch handler: its answer's headers
 * resolve `answered`, and its body goes straight to the sink the writer hands to
 * `pipeTo`, with the sink's backpressure pausing the upstream. No Node or web
 * stream stands between the two sockets.
 */
export class UpstreamExchange implements Dispatcher.DispatchHandler, StreamedBody {
  #controller: Dispatcher.DispatchController | undefined;
  #sink: BodySink | undefined;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #started = false;
  #ended = false;
  #failure: Error | undefined;
  #settle!: (end: BodyEnd) => void;
  /** settles once the answer's body is over: sent whole, broken off by the upstream, or left by the client */
  readonly ended = new Promise<BodyEnd>((resolve) => {
    this.#settle = resolve;
  });

  constructor(
    private readonly answered: (answer: UpstreamAnswer) => void,
    private readonly failed: (error: Error) => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: UpstreamAnswer["headers"]): void {
    // 1xx answers are the upstream's business with us; the client gets the final one.
    if (statusCode < 200) return;
    if (statusCode > 599) return controller.abort(new InvalidStatus(statusCode));
    this.#started = true;
    this.answered({ statusCode, headers, body: this });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    const sink = this.#sink;
    if (sink) {
      // A write past the sink's own mark still promises a 'drain', which resumes the upstream.
      if (!sink.write(chunk) && sink.writableLength >= WAITING_LIMIT) controller.pause();
      return;
    }
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.byteLength;
    if (this.#pendingBytes >= WAITING_LIMIT) controller.pause();
  }

  onResponseEnd(): void {
    this.#ended = true;
    this.#sink?.end();
    this.#settle("whole");
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (!this.#started) return this.failed(error);
    if (error instanceof ClientGone) return this.#settle("abandoned");
    // Headers are out: all that is left is to cut the client's answer off.
    this.#failure = error;
    this.#sink?.destroy(error);
    this.#settle("broken");
  }

  /** Lets the answer go unread: the gateway answers the client itself. */
  discard(): void {
    this.#abandon();
  }

  pipeTo(sink: BodySink): void {
    if (sink.destroyed) return this.#abandon();
    const pending = this.#pending;
    this.#pending = [];
    if (this.#failure) return sink.destroy(this.#failure);
    if (this.#ended) return endWith(sink, pending);
    this.#sink = sink;
    sink.on("drain", () => this.#controller?.resume());
    sink.on("close", () => {
      if (!this.#ended) this.#abandon();
    });
    for (const chunk of pending) sink.write(chunk);
    this.#controller?.resume();
  }

  #abandon(): void {
    this.#ended = true;
    this.#controller?.abort(new ClientGone("the client closed the connection"));
  }
}
