import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

function folderWithPackageJson(from: string): string {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, "package.json"))) return folder;
    if (dirname(folder) === folder) throw new Error(`No package.json above ${from}`);
  }
}

let found: string | undefined;

/**
 * Gatehouse's folder, the same whether this module runs from lib/runtime/ or bundled
 * into dist/. Found on first use: under Next's bundler this module's folder is not a
 * real one, and nothing there asks.
 */
export function projectRoot(): string {
  found ??= folderWithPackageJson(import.meta.dirname);
  return found;
}
