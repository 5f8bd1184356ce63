import { INVALID_SPAN_ID, INVALID_TRACE_ID } from "./trace-ids";

/** A caller's place in a trace, from its `traceparent` (W3C Trace Context). */
export type TraceParent = {
  /** 32 lower-case hex digits */
  traceId: string;
  /** the caller's span: 16 lower-case hex digits */
  parentId: string;
  /** trace-flags: two hex digits; 01 is sampled */
  flags: string;
};

/** `00-` trace-id `-` parent-id `-` trace-flags: 2 + 1 + 32 + 1 + 16 + 1 + 2. */
const LENGTH = 55;
const DASH = 0x2d;

function isLowerHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x66);
}

/**
 * The `traceparent` field's value when it is valid, else null: lower-case hex at
 * fixed positions, neither id all zeros, version ff refused. A later version may
 * append fields after a dash; version 00 may not. Node joins a repeated field with
 * ", ", which makes it too long, so two traceparents are refused too.
 */
export function parseTraceparent(value: string | null): TraceParent | null {
  if (value === null || value.length < LENGTH) return null;
  if (value.charCodeAt(2) !== DASH || value.charCodeAt(35) !== DASH || value.charCodeAt(52) !== DASH) return null;
  for (let index = 0; index < LENGTH; index++) {
    if (index !== 2 && index !== 35 && index !== 52 && !isLowerHex(value.charCodeAt(index))) return null;
  }
  const version = value.slice(0, 2);
  if (version === "ff") return null;
  if (value.length > LENGTH && (version === "00" || value.charCodeAt(LENGTH) !== DASH)) return null;
  const traceId = value.slice(3, 35);
  const parentId = value.slice(36, 52);
  if (traceId === INVALID_TRACE_ID || parentId === INVALID_SPAN_ID) return null;
  return { traceId, parentId, flags: value.slice(53, LENGTH) };
}

/** A version-00 `traceparent`, whatever version the caller spoke: the one this gateway knows. */
export function formatTraceparent(traceId: string, parentId: string, flags: string): string {
  return `00-${traceId}-${parentId}-${flags}`;
}
