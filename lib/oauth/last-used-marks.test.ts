import pino from "pino";
import { describe, expect, it } from "vitest";
import { createLastUsedMarks } from "./last-used-marks";

describe("last-used marks", () => {
  it("writes a consent's use at most once per interval, batched with the credentials'", async () => {
    const writes: { credentialIds: readonly string[]; consentIds?: readonly string[] }[] = [];
    const marks = createLastUsedMarks({ store: { markUsed: async (input) => void writes.push(input) }, log: pino({ enabled: false }), consentEveryMs: 50 });
    marks.mark("cred_1");
    marks.markConsent("agt_1");
    marks.markConsent("agt_1");
    await marks.flush();
    marks.markConsent("agt_1");
    marks.markConsent("agt_2");
    await marks.flush();
    await new Promise((resolve) => setTimeout(resolve, 60));
    marks.markConsent("agt_1");
    await marks.flush();
    expect(writes.map((write) => write.consentIds)).toEqual([["agt_1"], ["agt_2"], ["agt_1"]]);
    expect(writes[0]!.credentialIds).toEqual(["cred_1"]);
  });
});
