import { describe, expect, it } from "vitest";
import { zodFieldErrors } from "../http/problem";
import { listNotificationsQuerySchema, updateNotificationBodySchema } from "./schemas";

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
    expect(zodFieldErrors(result.error!, "query").map((error) => error.field).sort()).toEqual(["limit", "order", "severity", "sort"]);
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
