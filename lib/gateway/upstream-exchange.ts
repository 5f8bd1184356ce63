import type { Dispatcher } from "undici";
import type { BodySink, StreamedBody } from "../http/message";

export type UpstreamAnswer = { statusCode: number; headers: Record<string, string | string[] | undefined>; body: StreamedBody };

/** Bytes kept while the answer's headers are on their way to the client; past this the upstream waits. */
const PENDING_LIMIT = 64 * 1024;

/** Why the upstream request is ended when the client is gone. */
class ClientGone extends Error {}

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

  constructor(
    private readonly answered: (answer: UpstreamAnswer) => void,
    private readonly failed: (error: Error) => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: UpstreamAnswer["headers"]): void {
    // 1xx answers are the upstream's business with us; the client gets the final one.
    if (statusCode < 200) return;
    this.#started = true;
    this.answered({ statusCode, headers, body: this });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    const sink = this.#sink;
    if (sink) {
      if (!sink.write(chunk)) controller.pause();
      return;
    }
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.byteLength;
    if (this.#pendingBytes >= PENDING_LIMIT) controller.pause();
  }

  onResponseEnd(): void {
    this.#ended = true;
    this.#sink?.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (!this.#started) return this.failed(error);
    if (error instanceof ClientGone) return;
    // Headers are out: all that is left is to cut the client's answer off.
    this.#failure = error;
    this.#sink?.destroy(error);
  }

  pipeTo(sink: BodySink): void {
    if (sink.destroyed) return this.#abandon();
    this.#sink = sink;
    sink.on("drain", () => this.#controller?.resume());
    sink.on("close", () => {
      if (!this.#ended) this.#abandon();
    });
    for (const chunk of this.#pending) sink.write(chunk);
    this.#pending = [];
    if (this.#failure) sink.destroy(this.#failure);
    else if (this.#ended) sink.end();
    else this.#controller?.resume();
  }

  #abandon(): void {
    this.#ended = true;
    this.#controller?.abort(new ClientGone("the client closed the connection"));
  }
}
