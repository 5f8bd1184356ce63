// Imported first by server.ts: modules such as lib/log read the configuration while
// they load, so a bad variable would otherwise end start-up with a stack trace.
import { ConfigError, config } from "../lib/config";

try {
  config();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
