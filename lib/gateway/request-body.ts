import { problem, type ProblemError } from "../http/problem";

export type RequestBody = {
  /** what undici sends: the client's body, or a reader of it that counts and remembers */
  source: AsyncIterable<Uint8Array>;
  /** whether any of the body may have been read, so that sending it again would lose it */
  started(): boolean;
};

function tooLarge(maxBytes: number): ProblemError {
  return problem("payload-too-large", { detail: `This API accepts request bodies of at most ${maxBytes} bytes.` });
}

/**
 * The client's body as the proxy sends it. A declared length over the limit is
 * refused before anything is sent; an undeclared one is counted as it streams and
 * cut off past the limit. Wrapped only when there is a limit or a retry to allow
 * for: an upload with neither goes to undici as it is.
 */
export function requestBody(
  chunks: AsyncIterable<Uint8Array>,
  options: { declaredLength: string | null; maxBytes: number | undefined; replayable: boolean },
): RequestBody {
  const { maxBytes } = options;
  if (maxBytes !== undefined && options.declaredLength !== null && Number(options.declaredLength) > maxBytes) throw tooLarge(maxBytes);
  if (maxBytes === undefined && !options.replayable) return { source: chunks, started: () => true };
  let started = false;
  return {
    source: {
      async *[Symbol.asyncIterator]() {
        started = true;
        let bytes = 0;
        for await (const chunk of chunks) {
          bytes += chunk.byteLength;
          if (maxBytes !== undefined && bytes > maxBytes) throw tooLarge(maxBytes);
          yield chunk;
        }
      },
    },
    started: () => started,
  };
}
