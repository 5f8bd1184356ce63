// npm run --silent admin -- <group> <action> [args] [--json]
import { runAdmin } from "../lib/admin-cli/run";
import { loadEnvFile } from "../lib/env-file";

// The process's environment, with `.env`'s variables where it has none, as config() reads it.
loadEnvFile();
// The process then ends on its own once stdout and stderr are written out: `process.exit`
// would cut short what a pipe (a CI log) has not taken yet.
process.exitCode = await runAdmin(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
