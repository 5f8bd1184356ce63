import { once } from "node:events";
import { createServer, type ServerResponse } from "node:http";
import { setImmediate as nextCheckPhase } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createAnswerBatch } from "./answer-batch";

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A server that holds on to `count` requests' responses, and the answers its clients get for them, in the order sent. */
async function heldResponses(count: number): Promise<{ responses: ServerResponse[]; answers: Promise<Response[]> }> {
  const server = createServer();
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  const responses: ServerResponse[] = [];
  const answers: Promise<Response>[] = [];
  for (let index = 0; index < count; index++) {
    const arrived = once(server, "request") as Promise<[unknown, ServerResponse]>;
    answers.push(fetch(`http://127.0.0.1:${port}/${index}`));
    responses.push((await arrived)[1]);
  }
  return { responses, answers: Promise.all(answers) };
}

describe("the gateway's answer batch", () => {
  it("writes nothing while the turn runs, then every answer queued in it", async () => {
    const { responses, answers } = await heldResponses(3);
    const answer = createAnswerBatch(() => {});
    responses.forEach((res, index) => answer({ status: 200, headers: { "content-type": "text/plain" }, body: `answer ${index}` }, res));
    expect(responses.map((res) => res.headersSent)).toEqual([false, false, false]);
    await nextCheckPhase();
    expect(responses.map((res) => res.headersSent)).toEqual([true, true, true]);
    const received = await answers;
    expect(await Promise.all(received.map((response) => response.text()))).toEqual(["answer 0", "answer 1", "answer 2"]);
  });

  it("hands an answer Node refuses to write to its own failure handler, and still writes the others", async () => {
    const { responses, answers } = await heldResponses(3);
    const failures: unknown[] = [];
    const answer = createAnswerBatch((error, res) => {
      failures.push(error);
      res.writeHead(500).end("could not write");
    });
    answer({ status: 200, headers: {}, body: "first" }, responses[0]!);
    answer({ status: 200, headers: { "x-broken": "line\nbreak" }, body: "never sent" }, responses[1]!);
    answer({ status: 200, headers: {}, body: "third" }, responses[2]!);
    const received = await answers;
    expect(received.map((response) => response.status)).toEqual([200, 500, 200]);
    expect(await Promise.all(received.map((response) => response.text()))).toEqual(["first", "could not write", "third"]);
    expect(failures).toHaveLength(1);
    expect((failures[0] as NodeJS.ErrnoException).code).toBe("ERR_INVALID_CHAR");
  });
});
