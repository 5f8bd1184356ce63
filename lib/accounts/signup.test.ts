import { describe, expect, it } from "vitest";
import { ProblemError } from "../http/problem";
import { signUp, signupReceipt } from "./signup";

describe("sign-up modes", () => {
  it("refuses every sign-up when closed, before reading anything", async () => {
    const refused = await signUp({ email: "a@example.com", name: "A", password: "long-enough-password" }, "closed", new Headers()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProblemError);
    expect(refused).toMatchObject({ status: 403, code: "signup-closed" });
  });

  it("tells open and approval sign-ups apart, and nothing else", () => {
    expect(signupReceipt("open").message).toContain("sign in");
    expect(signupReceipt("approval").message).toContain("approved");
  });
});
