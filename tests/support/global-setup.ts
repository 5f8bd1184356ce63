import { existsSync } from "node:fs";
import { join } from "node:path";
import { bringServerBuildUpToDate } from "./server-build";

/** Integration tests run the real build; `npm test` builds Next once before Vitest starts. */
export default function setup(): void {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (!existsSync(join(import.meta.dirname, "..", "..", distDir, "BUILD_ID"))) {
    throw new Error(`No Next build in ${distDir}/: run \`npm run build\` first (npm test does).`);
  }
  bringServerBuildUpToDate();
}
