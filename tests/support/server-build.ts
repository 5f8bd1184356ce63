import { execFileSync } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");

/** Compiles the server to dist/ if a source changed (a moment's work), so tests never run an older server than its source. */
export function bringServerBuildUpToDate(): void {
  execFileSync(process.execPath, [join(ROOT, "scripts", "build-server.mjs")], { cwd: ROOT, stdio: "inherit" });
}
