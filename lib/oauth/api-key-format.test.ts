import { describe, expect, it } from "vitest";
import { API_KEY_PATTERN, generateApiKey, isWellFormedApiKey } from "./api-key-format";

describe("API key format", () => {
  it("is gk_, 32 base62 characters and a 6-character checksum that checks", () => {
    const key = generateApiKey();
    expect(key).toMatch(API_KEY_PATTERN);
    expect(key).toHaveLength(3 + 32 + 6);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(new Set(Array.from({ length: 50 }, generateApiKey)).size).toBe(50);
  });

  it("refuses a changed character, a bad checksum, another prefix and other lengths", () => {
    const key = generateApiKey();
    const swapped = key.slice(0, 10) + (key[10] === "a" ? "b" : "a") + key.slice(11);
    expect(isWellFormedApiKey(swapped)).toBe(false);
    expect(isWellFormedApiKey(`${key.slice(0, -1)}${key.endsWith("0") ? "1" : "0"}`)).toBe(false);
    expect(isWellFormedApiKey(`gx_${key.slice(3)}`)).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`${key}0`)).toBe(false);
    expect(isWellFormedApiKey("")).toBe(false);
  });
});
