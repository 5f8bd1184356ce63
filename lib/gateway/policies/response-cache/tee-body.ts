import type { BodySink, StreamedBody } from "../../../http/message";

/** The chunks in one array of its own: a slice of Node's shared pool would keep the whole pool alive while the entry lives. */
function joined(chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * The body as it is, written to the client's sink with the sink's own backpressure, while a
 * copy is kept up to `maxBytes`; `whole` gets the copy once the body has ended within that
 * bound, and the client's answer ends once `whole` has kept it, so that a client holding an
 * answer marked `stored` finds it on every instance. A body broken off, left by the client or
 * past the bound gives nothing.
 */
export function teeBody(body: StreamedBody, maxBytes: number, whole: (bytes: Uint8Array<ArrayBuffer>) => Promise<void>): StreamedBody {
  return {
    ended: body.ended,
    pipeTo(sink: BodySink) {
      let chunks: Uint8Array[] = [];
      let size = 0;
      let kept = true;
      const keep = (chunk: Uint8Array) => {
        if (!kept) return;
        size += chunk.byteLength;
        if (size <= maxBytes) return void chunks.push(chunk);
        kept = false;
        chunks = [];
      };
      body.pipeTo({
        write(chunk) {
          keep(chunk);
          return sink.write(chunk);
        },
        end(chunk) {
          if (chunk) keep(chunk);
          if (!kept) return sink.end(chunk);
          void whole(joined(chunks, size)).then(() => sink.end(chunk));
        },
        destroy(error) {
          kept = false;
          sink.destroy(error);
        },
        on: (event, listener) => sink.on(event, listener),
        get destroyed() {
          return sink.destroyed;
        },
        get writableLength() {
          return sink.writableLength;
        },
      });
    },
  };
}
