import { describe, expect, it } from "vitest";
import { oneLookupAtATime } from "./serial-lookups";

/** A resolver whose lookups end only when the test says, as a name server that never answers does. */
function heldResolver() {
  const started: string[] = [];
  const answers = new Map<string, () => void>();
  const resolve = (hostname: string) => {
    started.push(hostname);
    return new Promise<{ address: string; family: number }[]>((done) => answers.set(hostname, () => done([{ address: "203.0.113.7", family: 4 }])));
  };
  return { resolve, started, answer: (hostname: string) => answers.get(hostname)!() };
}

describe("outbound lookups, one at a time", () => {
  it("starts a lookup only once the one before it has ended", async () => {
    const held = heldResolver();
    const lookup = oneLookupAtATime(held.resolve, 1_000);
    const first = lookup("slow.example");
    const second = lookup("api.example");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(held.started).toEqual(["slow.example"]);
    held.answer("slow.example");
    expect(await first).toEqual([{ address: "203.0.113.7", family: 4 }]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(held.started).toEqual(["slow.example", "api.example"]);
    held.answer("api.example");
    expect(await second).toEqual([{ address: "203.0.113.7", family: 4 }]);
  });

  it("gives a lookup up at its deadline, keeps the turn while the system's lookup still runs, and never starts one given up while it waited", async () => {
    const held = heldResolver();
    const lookup = oneLookupAtATime(held.resolve, 50);
    const hung = lookup("never-answers.example");
    const waiting = lookup("queued.example");
    await expect(hung).rejects.toThrow("no answer within 50 ms");
    await expect(waiting).rejects.toThrow("no answer within 50 ms");
    const next = lookup("api.example");
    held.answer("never-answers.example");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(held.started).toEqual(["never-answers.example", "api.example"]);
    held.answer("api.example");
    expect(await next).toHaveLength(1);
  });
});
