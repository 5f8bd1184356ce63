import { describe, expect, it } from "vitest";
import { zodFieldErrors } from "../http/problem";
import { isNotificationId } from "./not-found";
import { entityTagListSchema, listNotificationsQuerySchema, notificationIdSchema, updateNotificationBodySchema } from "./schemas";

describe("listNotificationsQuerySchema", () => {
  it("turns query strings into typed filters", () => {
    expect(listNotificationsQuerySchema.parse({ status: "read,unread,read", limit: "100", since: "2022-12-05T10:00:00+01:00" })).toEqual({
      status: ["read", "unread"],
      limit: 100,
      since: new Date("2022-12-05T09:00:00Z"),
    });
  });

  it("names every bad or unknown parameter", () => {
    const result = listNotificationsQuerySchema.safeParse({ limit: "0", sort: "asc", order: "x", severity: "high" });
    expect(result.success).toBe(false);
    expect(
      zodFieldErrors(result.error!, "query")
        .map((error) => error.field)
        .sort(),
    ).toEqual(["limit", "order", "severity", "sort"]);
  });
});

describe("updateNotificationBodySchema", () => {
  it("needs status and rejects fields the resource does not have", () => {
    const result = updateNotificationBodySchema.safeParse({ version: 2 });
    expect(zodFieldErrors(result.error!, "body")).toEqual([
      { in: "body", field: "status", message: expect.any(String) },
      { in: "body", field: "version", message: "is not a known field" },
    ]);
  });
});

describe("the limits the OpenAPI document declares", () => {
  const tooLong = (length: number) => "1".repeat(length);

  it("refuses query values longer than declared", () => {
    for (const [name, value] of [
      ["status", `unread${",read".repeat(20)}`],
      ["since", `2022-12-05T10:00:00.${"0".repeat(30)}Z`],
      ["limit", "0100"],
      ["cursor", tooLong(513)],
    ]) {
      const result = listNotificationsQuerySchema.safeParse({ [name!]: value });
      expect(result.success, name).toBe(false);
      expect(zodFieldErrors(result.error!, "query").map((error) => error.field)).toEqual([name]);
    }
  });

  it("accepts only ids this API issues, up to 68 characters", () => {
    expect(notificationIdSchema.safeParse(`ntf_${"a".repeat(64)}`).success).toBe(true);
    expect(notificationIdSchema.safeParse(`ntf_${"a".repeat(65)}`).success).toBe(false);
    expect(notificationIdSchema.safeParse("42").success).toBe(false);
    expect(isNotificationId(`ntf_${"a".repeat(65)}`)).toBe(false);
  });

  it("refuses read-only fields in the PUT body beyond their declared length", () => {
    const result = updateNotificationBodySchema.safeParse({ status: "read", id: `ntf_${"a".repeat(65)}`, createdAt: `2022-12-05T10:00:00.${"0".repeat(30)}Z` });
    expect(
      zodFieldErrors(result.error!, "body")
        .map((error) => error.field)
        .sort(),
    ).toEqual(["createdAt", "id"]);
  });

  it("refuses If-Match and If-None-Match values over 256 characters", () => {
    expect(entityTagListSchema.safeParse('"v1", "v2"').success).toBe(true);
    expect(entityTagListSchema.safeParse(tooLong(257)).success).toBe(false);
  });
});
