import type { IncomingRequest } from "../http/message";
import { problem, type ProblemError } from "../http/problem";

export type RequestBody = {
  /** what undici sends: a reader of the client's body that counts it and tells whose fault a failure is, or the body read already */
  source: AsyncIterable<Uint8Array> | Uint8Array;
  /** whether any of the body may have been read, so that sending it again would lose it */
  started(): boolean;
  /** whether reading the client's body failed: the client closed the connection or broke its framing */
  clientFailed(): boolean;
  /** whether the body is waiting for the client's next bytes, so that a timeout now is the client's slowness */
  waitingForClient(): boolean;
};

export function bodyTooLarge(maxBytes: number): ProblemError {
  return problem("payload-too-large", { detail: `This API accepts request bodies of at most ${maxBytes} bytes.` });
}

/** The refusal for a body the client did not send whole: what the HTTP parser answered, else 499. */
export function bodyNotWhole(request: IncomingRequest): ProblemError {
  return request.bodyRefusal?.() ?? problem("client-closed-request", { detail: "The client closed the connection before its request body arrived whole." });
}

/**
 * The client's body as the proxy sends it. A declared length over the limit is
 * refused before anything is sent; an undeclared one is counted as it streams and
 * cut off past the limit. Every body is read through this reader, so that a failure
 * of the client's own body (docs/decisions/045) is never counted against the target.
 */
export function requestBody(
  chunks: AsyncIterable<Uint8Array>,
  options: { declaredLength: string | null; maxBytes: number | undefined },
): RequestBody & { source: AsyncIterable<Uint8Array> } {
  const { maxBytes } = options;
  if (maxBytes !== undefined && options.declaredLength !== null && Number(options.declaredLength) > maxBytes) throw bodyTooLarge(maxBytes);
  let started = false;
  let clientFailed = false;
  let waiting = false;
  return {
    source: {
      async *[Symbol.asyncIterator]() {
        started = true;
        const reader = chunks[Symbol.asyncIterator]();
        let bytes = 0;
        let done = false;
        try {
          for (;;) {
            let next: IteratorResult<Uint8Array>;
            waiting = true;
            try {
              next = await reader.next();
            } catch (error) {
              clientFailed = true;
              throw error;
            } finally {
              waiting = false;
            }
            if (next.done) {
              done = true;
              return;
            }
            bytes += next.value.byteLength;
            if (maxBytes !== undefined && bytes > maxBytes) throw bodyTooLarge(maxBytes);
            yield next.value;
          }
        } finally {
          // As for await would: a body left unread is let go (a Node request is destroyed).
          if (!done && !clientFailed) await reader.return?.();
        }
      },
    },
    started: () => started,
    clientFailed: () => clientFailed,
    waitingForClient: () => waiting,
  };
}

/** A body read whole before the call (request validation reads it): nothing of the client's is left to fail, and it can be sent again. */
export function bufferedBody(bytes: Uint8Array): RequestBody {
  return { source: bytes, started: () => false, clientFailed: () => false, waitingForClient: () => false };
}
