import { describe, expect, it } from "vitest";
import { introspectionRequestSchema, revocationRequestSchema, tokenRequestSchema } from "./schemas";

describe("the limits the token API's OpenAPI document declares", () => {
  it("refuses a token request whose scope or client credentials are longer than declared", () => {
    const base = { grant_type: "client_credentials" };
    expect(tokenRequestSchema.safeParse({ ...base, scope: "a".repeat(2000) }).success).toBe(true);
    expect(tokenRequestSchema.safeParse({ ...base, scope: "a".repeat(2001) }).success).toBe(false);
    expect(tokenRequestSchema.safeParse({ ...base, client_id: "c".repeat(201) }).success).toBe(false);
    expect(tokenRequestSchema.safeParse({ ...base, client_secret: "s".repeat(201) }).success).toBe(false);
  });

  it("refuses a token to revoke or introspect longer than 8192 characters", () => {
    for (const schema of [revocationRequestSchema, introspectionRequestSchema]) {
      expect(schema.safeParse({ token: "t".repeat(8192) }).success).toBe(true);
      expect(schema.safeParse({ token: "t".repeat(8193) }).success).toBe(false);
    }
  });
});
