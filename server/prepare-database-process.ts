// A process of its own for `prepareDatabase`, started by the gateway-only entry: the
// schema engine, Prisma's client and the seed are loaded here, and all of their memory
// goes back to the system when the process exits (decision 014). A thread that ended
// left about 20 MB of the gateway-only process's malloc heap behind.
import { disconnectDb } from "../lib/db";
import { prepareDatabase } from "./prepare-database";
import { startupFailure } from "./start-up";

const outcome = await prepareDatabase().then(
  (report) => ({ report }),
  (error: unknown) => ({ failure: startupFailure(error) }),
);
await disconnectDb().catch(() => undefined);
process.send!(outcome, () => process.exit(0));
