import { describe, expect, it } from "vitest";
import { z } from "zod";
import { pageKey, pageKeyOf } from "./page-key";
import { listNotificationsQuerySchema } from "./schemas";

const owner = { environmentId: "env_qa", clientId: "gci_a" };

describe("the kept page's key", () => {
  it("differs whenever any field of the query or the owner does", () => {
    const base = listNotificationsQuerySchema.parse({});
    const variants = [
      { status: "unread" },
      { status: "unread,read" },
      { category: "security" },
      { severity: "critical" },
      { since: "2026-01-01T00:00:00Z" },
      { limit: "5" },
    ].map((input) => pageKey(owner, listNotificationsQuerySchema.parse(input)));
    const keys = new Set([pageKey(owner, base), pageKey({ ...owner, clientId: "gci_b" }, base), ...variants]);
    expect(keys.size).toBe(variants.length + 2);
    expect(Object.keys(listNotificationsQuerySchema.shape).length).toBeGreaterThanOrEqual(6);
  });

  it("takes in a filter added to the schema, with no change to the cache", () => {
    const extended = listNotificationsQuerySchema.extend({ tag: z.string().optional() });
    const keyOf = pageKeyOf(extended);
    const tagged = (tag: string) => keyOf(owner, extended.parse({ status: "unread", tag }));
    expect(tagged("billing")).not.toBe(tagged("security"));
  });
});
