// Programs the bench uses when the machine has them (HAProxy, wrk); it never installs one.
import { accessSync, constants } from "node:fs";
import { join } from "node:path";

/** The program's path on PATH, or undefined. */
export function onPath(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    try {
      accessSync(join(dir, program), constants.X_OK);
      return join(dir, program);
    } catch {
      // not in this directory
    }
  }
  return undefined;
}
