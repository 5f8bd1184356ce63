import { describe, expect, it } from "vitest";
import { newRequestId, requestIdFrom } from "./request-id";

describe("request ids", () => {
  it("mints 32 hex digits that sort by the time they were minted and do not repeat", async () => {
    const first = newRequestId();
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = newRequestId();
    expect(first).toMatch(/^req_[0-9a-f]{32}$/);
    expect(second > first).toBe(true);
    expect(new Set(Array.from({ length: 1_000 }, newRequestId)).size).toBe(1_000);
  });

  it("echoes a caller's harmless id and replaces any other", () => {
    expect(requestIdFrom(new Headers({ "x-request-id": "trace-42" }))).toBe("trace-42");
    expect(requestIdFrom(new Headers({ "x-request-id": "<script>" }))).toMatch(/^req_[0-9a-f]{32}$/);
  });
});
