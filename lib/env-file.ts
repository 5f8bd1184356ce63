import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";

/**
 * Adds the variables of `.env` in the working directory to `process.env`,
 * without replacing any the process environment already has. `config()` calls
 * it first, so the server, the portal's thread, the db scripts and the admin CLI
 * read the same sources in the same order; a build or worker started
 * afterwards inherits the result.
 */
export function loadEnvFile(path = ".env"): void {
  try {
    process.loadEnvFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** The variables `.env` in the working directory sets, without adding them to `process.env`. */
export function readEnvFile(path = ".env"): Record<string, string> {
  try {
    // A path known only at run time: without the marker, Next's build traces the whole repository into every route.
    return parseEnv(readFileSync(/* turbopackIgnore: true */ path, "utf8")) as Record<string, string>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return {};
  }
}
