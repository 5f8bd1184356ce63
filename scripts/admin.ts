// npm run --silent admin -- <group> <action> [args] [--json]
import { runAdmin } from "../lib/admin-cli/run";

await runAdmin(process.argv.slice(2));
