import { describe, expect, it } from "vitest";
import type { Db } from "../db";
import { ProblemError } from "../http/problem";
import { signUp, signupReceipt } from "./signup";

describe("sign-up modes", () => {
  it("refuses every sign-up when closed, before reading anything", async () => {
    // A client with no models: any query would fail with a TypeError, not the problem asserted below.
    const noDatabase = {} as Db;
    const refused = await signUp({
      db: noDatabase,
      input: { email: "a@example.com", name: "A", password: "long-enough-password" },
      mode: "closed",
      headers: new Headers(),
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProblemError);
    expect(refused).toMatchObject({ status: 403, code: "signup-closed" });
  });

  it("tells open and approval sign-ups apart, and nothing else", () => {
    expect(signupReceipt("open").message).toContain("sign in");
    expect(signupReceipt("approval").message).toContain("approved");
  });
});
