// Before measuring: the hand-written service and Gatehouse must give identical
// answers (status, body, ETag, Link) to a sample of the workload's requests.
import { send } from "./http";
import { mixRequest } from "./load";
import type { BenchClient } from "./workload";

const SAMPLE = 60;

async function answer(origin: string, request: ReturnType<typeof mixRequest>) {
  const response = await send(`${origin}${request.path}`, request);
  return { status: response.status, etag: response.headers.etag, link: response.headers.link, body: response.body };
}

export async function checkIdenticalAnswers(gatehouse: string, baseline: string, clients: readonly BenchClient[]): Promise<void> {
  for (let i = 0; i < SAMPLE; i++) {
    const request = mixRequest(clients);
    // Gatehouse first: an update it makes, the baseline then finds already made and answers alike.
    const expected = await answer(gatehouse, request);
    const actual = await answer(baseline, request);
    if (expected.status !== 200) throw new Error(`Gatehouse answered ${expected.status} to ${request.method} ${request.path}: ${expected.body}`);
    if (JSON.stringify(expected) !== JSON.stringify(actual)) {
      throw new Error(
        `answers differ for ${request.method} ${request.path}:\n  Gatehouse: ${JSON.stringify(expected)}\n  baseline:  ${JSON.stringify(actual)}`,
      );
    }
  }
  process.stderr.write(`identical answers from Gatehouse and the hand-written service for ${SAMPLE} sampled requests\n`);
}
