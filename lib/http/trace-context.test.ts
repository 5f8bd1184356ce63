import { describe, expect, it } from "vitest";
import { formatTraceparent, parseTraceparent } from "./trace-context";
import { newSpanId, newTraceId } from "./trace-ids";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID = "00f067aa0ba902b7";
const VALID = `00-${TRACE_ID}-${PARENT_ID}-01`;

describe("traceparent", () => {
  it("reads the trace id, the caller's span and the flags of a valid one", () => {
    expect(parseTraceparent(VALID)).toEqual({ traceId: TRACE_ID, parentId: PARENT_ID, flags: "01" });
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-00`)?.flags).toBe("00");
  });

  it("ignores what is not one", () => {
    for (const invalid of [
      null,
      "",
      VALID.slice(0, -1),
      `${VALID}-extra`,
      VALID.toUpperCase(),
      VALID.replaceAll("-", "_"),
      `00-${TRACE_ID}-${PARENT_ID}-0g`,
      `00-${"0".repeat(32)}-${PARENT_ID}-01`,
      `00-${TRACE_ID}-${"0".repeat(16)}-01`,
      `ff-${TRACE_ID}-${PARENT_ID}-01`,
      ` ${VALID.slice(1)}`,
      // Node joins two traceparent fields with ", ".
      `${VALID}, 00-${TRACE_ID}-${PARENT_ID}-00`,
    ]) {
      expect(parseTraceparent(invalid), String(invalid)).toBeNull();
    }
  });

  it("reads a later version's four fields, with or without fields after them", () => {
    expect(parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-01`)).toEqual({ traceId: TRACE_ID, parentId: PARENT_ID, flags: "01" });
    expect(parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-01-what-comes-next`)?.traceId).toBe(TRACE_ID);
    expect(parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-01.what-comes-next`)).toBeNull();
  });

  it("is written as version 00, and read back as written", () => {
    const [traceId, parentId] = [newTraceId(), newSpanId()];
    const written = formatTraceparent(traceId, parentId, "01");
    expect(written).toBe(`00-${traceId}-${parentId}-01`);
    expect(parseTraceparent(written)).toEqual({ traceId, parentId, flags: "01" });
  });
});

describe("trace and span ids", () => {
  it("are lower-case hex of 16 and 8 random bytes, different each time, also across refills of the pool", () => {
    const traceIds = new Set(Array.from({ length: 1_000 }, newTraceId));
    const spanIds = new Set(Array.from({ length: 1_000 }, newSpanId));
    expect(traceIds.size).toBe(1_000);
    expect(spanIds.size).toBe(1_000);
    for (const id of traceIds) expect(id).toMatch(/^[0-9a-f]{32}$/);
    for (const id of spanIds) expect(id).toMatch(/^[0-9a-f]{16}$/);
  });
});
