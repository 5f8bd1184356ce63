import type { ServerResponse } from "node:http";
import type { PlainResponse } from "./message";
import { writePlainResponse } from "./node-message";

type Waiting = { response: PlainResponse; res: ServerResponse };

/** Queues an answer to be written with the rest of its turn's. */
export type AnswerBatch = (response: PlainResponse, res: ServerResponse) => void;

/**
 * Answers wait for the event loop's check phase and go out there together, once the poll phase
 * has served every connection that was ready. A write wakes a client that sleeps on its socket,
 * and on a virtual machine a wake-up on another core costs about as much as the write: written
 * as each was ready, every answer woke its client anew, while a client woken by the first answer
 * of a batch is still awake for the rest (decision 075). An answer Node refuses to write goes to
 * `failed` alone; the rest of its batch is written.
 */
export function createAnswerBatch(failed: (error: unknown, res: ServerResponse) => void): AnswerBatch {
  let waiting: Waiting[] = [];

  function writeAll(): void {
    const batch = waiting;
    waiting = [];
    for (const { response, res } of batch) {
      try {
        writePlainResponse(response, res);
      } catch (error) {
        failed(error, res);
      }
    }
  }

  return (response, res) => {
    if (waiting.push({ response, res }) === 1) setImmediate(writeAll);
  };
}
