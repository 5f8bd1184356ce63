import type { ServerResponse } from "node:http";
import type { PlainResponse } from "./message";
import { writePlainResponse } from "./node-message";

type Waiting = { response: PlainResponse; res: ServerResponse; failed: (error: unknown) => void };

/** Queues an answer; `failed` gets what writing it threw, and nothing else in its batch is lost. */
export type AnswerBatch = (response: PlainResponse, res: ServerResponse, failed: (error: unknown) => void) => void;

/**
 * Answers wait for the event loop's check phase and go out there together, once the poll phase
 * has served every connection that was ready. A write wakes a client that sleeps on its socket,
 * and on a virtual machine a wake-up on another core costs about as much as the write: written
 * as each was ready, every answer woke its client anew, while a client woken by the first answer
 * of a batch is still awake for the rest (decision 075).
 */
export function createAnswerBatch(): AnswerBatch {
  let waiting: Waiting[] = [];

  function writeAll(): void {
    const batch = waiting;
    waiting = [];
    for (const { response, res, failed } of batch) {
      try {
        writePlainResponse(response, res);
      } catch (error) {
        failed(error);
      }
    }
  }

  return (response, res, failed) => {
    if (waiting.push({ response, res, failed }) === 1) setImmediate(writeAll);
  };
}
