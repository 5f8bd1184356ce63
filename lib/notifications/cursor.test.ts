import { describe, expect, it } from "vitest";
import { ProblemError } from "../http/problem";
import { decodeCursor, encodeCursor } from "./cursor";

describe("cursor", () => {
  it("round-trips a position as an opaque URL-safe string", () => {
    const position = { createdAt: new Date("2022-12-05T09:30:00.123Z"), id: "ntf_abc-_DEF" };
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it.each([
    "%%%",
    "bm90IGpzb24",
    Buffer.from("[1]").toString("base64url"),
    Buffer.from('[1e300,"x"]').toString("base64url"),
    Buffer.from('[1,""]').toString("base64url"),
  ])("refuses %s with a 400 naming cursor", (value) => {
    let thrown: unknown;
    try {
      decodeCursor(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ProblemError);
    expect(thrown).toMatchObject({ status: 400, errors: [{ in: "query", field: "cursor" }] });
  });
});
