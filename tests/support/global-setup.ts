import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * Integration tests run the real build; `npm test` builds Next once before Vitest
 * starts. The compiled server is brought up to date here (it takes a moment), so
 * a test never runs an older server than the source it sits beside.
 */
export default function setup(): void {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (!existsSync(join(ROOT, distDir, "BUILD_ID"))) {
    throw new Error(`No Next build in ${distDir}/: run \`npm run build\` first (npm test does).`);
  }
  execFileSync(process.execPath, [join(ROOT, "scripts", "build-server.mjs")], { cwd: ROOT, stdio: "inherit" });
}
