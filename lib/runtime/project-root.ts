import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

function folderWithPackageJson(from: string): string {
  for (let folder = from; ; folder = dirname(folder)) {
    if (existsSync(join(folder, "package.json"))) return folder;
    if (dirname(folder) === folder) throw new Error(`No package.json above ${from}`);
  }
}

/** Gatehouse's folder, the same whether this module runs from lib/runtime/ or bundled into dist/. */
export const PROJECT_ROOT = folderWithPackageJson(import.meta.dirname);
