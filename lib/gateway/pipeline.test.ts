import { describe, expect, it } from "vitest";
import type { PlainResponse } from "../http/message";
import { problem, ProblemError } from "../http/problem";
import { type Decided, type GatewayCall, PASS, runStages, type Stage } from "./pipeline";

const call = { request: { method: "GET" }, path: "/gw/qa/orders/v1" } as GatewayCall;
const answer = (status: number): PlainResponse => ({ status, headers: {}, body: null });

describe("runStages", () => {
  it("runs the stages in their order, each seeing what those before it decided, up to the one that answers", async () => {
    const seen: (string | undefined)[] = [];
    const stages: Stage[] = [
      () => ({ route: "/v1/orders" }),
      (_call, decided) => {
        seen.push(decided.route);
        return PASS;
      },
      async () => ({ clientId: "gci_one", answer: answer(200) }),
      () => {
        throw new Error("a stage after the answer ran");
      },
    ];
    const decided: Decided = {};
    expect((await runStages(stages, call, decided))?.status).toBe(200);
    expect(seen).toEqual(["/v1/orders"]);
    expect(decided).toEqual({ route: "/v1/orders", clientId: "gci_one" });
  });

  it("throws a refusal once the facts decided with it are collected, and runs no stage after it", async () => {
    const decided: Decided = {};
    const refusal = problem("not-found", { detail: "no such thing" });
    const stages: Stage[] = [() => ({ clientId: "gci_two", refusal }), () => ({ answer: answer(200) })];
    await expect(runStages(stages, call, decided)).rejects.toBe(refusal);
    expect(decided.clientId).toBe("gci_two");
  });

  it("lets a stage answer through the stages after it, for a call it changed", async () => {
    const stages: Stage[] = [
      async (current, _decided, rest) => ({ answer: await rest({ ...current, path: `${current.path}/changed` }) }),
      (current) => ({ answer: answer(current.path.endsWith("/changed") ? 204 : 500) }),
    ];
    expect((await runStages(stages, call, {}))?.status).toBe(204);
  });

  it("returns nothing when every stage lets the call pass, and fails the call when a wrapping stage finds no answer after it", async () => {
    expect(await runStages([() => PASS], call, {})).toBeUndefined();
    const wrapping: Stage = async (current, _decided, rest) => ({ answer: await rest(current) });
    await expect(runStages([wrapping, () => PASS], call, {})).rejects.not.toBeInstanceOf(ProblemError);
  });
});
