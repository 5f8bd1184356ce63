// A thread of its own for `prepareDatabase`, started by the gateway-only entry: the
// schema engine, Prisma's client and the seed are loaded here and freed when the
// thread ends, so the data plane never holds them (decision 007, "Fourth round").
import { parentPort } from "node:worker_threads";
import { disconnectDb } from "../lib/db";
import { prepareDatabase } from "./prepare-database";
import { startupFailure } from "./start-up";

const outcome = await prepareDatabase().then(
  (report) => ({ report }),
  (error: unknown) => ({ failure: startupFailure(error) }),
);
await disconnectDb().catch(() => undefined);
parentPort!.postMessage(outcome);
