import { randomHex } from "./random-hex";

/** W3C Trace Context calls an id of zeros invalid, so such a draw is drawn again. */
export const INVALID_TRACE_ID = "0".repeat(32);
export const INVALID_SPAN_ID = "0".repeat(16);

/** 16 random bytes as 32 lower-case hex digits. */
export function newTraceId(): string {
  const id = randomHex(16);
  return id === INVALID_TRACE_ID ? newTraceId() : id;
}

/** 8 random bytes as 16 lower-case hex digits. */
export function newSpanId(): string {
  const id = randomHex(8);
  return id === INVALID_SPAN_ID ? newSpanId() : id;
}
