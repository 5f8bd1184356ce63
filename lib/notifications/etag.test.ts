import { describe, expect, it } from "vitest";
import { ifMatchSatisfied, ifNoneMatchMatches, notificationEtag } from "./etag";

describe("ETags", () => {
  const etag = notificationEtag(3);

  it("are strong and change with the version", () => {
    expect(etag).toBe('"v3"');
    expect(notificationEtag(4)).not.toBe(etag);
  });

  it("If-Match compares strongly", () => {
    expect(ifMatchSatisfied('"v3"', etag)).toBe(true);
    expect(ifMatchSatisfied('"v1", "v3"', etag)).toBe(true);
    expect(ifMatchSatisfied("*", etag)).toBe(true);
    expect(ifMatchSatisfied('W/"v3"', etag)).toBe(false);
    expect(ifMatchSatisfied('"v2"', etag)).toBe(false);
    expect(ifMatchSatisfied("", etag)).toBe(false);
  });

  it("If-None-Match compares weakly", () => {
    expect(ifNoneMatchMatches('W/"v3"', etag)).toBe(true);
    expect(ifNoneMatchMatches('"v2" , "v3"', etag)).toBe(true);
    expect(ifNoneMatchMatches("*", etag)).toBe(true);
    expect(ifNoneMatchMatches('"v2"', etag)).toBe(false);
  });
});
