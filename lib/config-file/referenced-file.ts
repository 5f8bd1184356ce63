import { createHash } from "node:crypto";
import { open, realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";

/** The most a configuration file may hold. */
export const CONFIG_FILE_MAX_BYTES = 5_000_000;
/** The most a file that a configuration file names may hold: as much as the portal takes for an OpenAPI document. */
export const REFERENCED_FILE_MAX_BYTES = 2_000_000;

/** A file that a configuration file names, as `config diff` shows it: its path from the root and the SHA-256 of its bytes. */
export type ReferencedFile = { path: string; sha256: string };

/** `5 MB (5000000 bytes)` */
export function capText(maxBytes: number): string {
  return `${maxBytes / 1_000_000} MB (${maxBytes} bytes)`;
}

export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/**
 * The file's bytes, or null when it holds more than `maxBytes`. The size on disk is not
 * trusted: `/proc` files and devices report 0, so the reading itself stops one byte past the cap.
 */
export async function readCapped(path: string, maxBytes: number): Promise<Buffer | null> {
  const handle = await open(path, "r");
  try {
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of handle.createReadStream({ end: maxBytes, autoClose: false })) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
    }
    return length > maxBytes ? null : Buffer.concat(chunks, length);
  } finally {
    await handle.close();
  }
}

function isInside(root: string, path: string): boolean {
  const from = relative(root, path);
  return from !== "" && from.split(sep)[0] !== ".." && !isAbsolute(from);
}

/**
 * Reads `source`, a path that the configuration file in `directory` names, relative to it.
 * The file must be a regular file inside `root` (the configuration file's folder, or `--root`)
 * once symbolic links are resolved, so that a merged configuration change cannot publish
 * what lies beside the repository: the CI runner's environment, its secrets, `/etc`.
 */
export async function readReferencedFile(source: string, directory: string, root: string): Promise<(ReferencedFile & { text: string }) | { error: string }> {
  const outside = { error: `${source} is outside ${root}: a configuration file names only files inside its folder, or under --root` };
  if (!isInside(root, resolve(directory, source))) return outside;
  try {
    const path = await realpath(resolve(directory, source));
    if (!isInside(root, path)) return outside;
    if (!(await stat(path)).isFile()) return { error: `${source} is not a regular file` };
    const bytes = await readCapped(path, REFERENCED_FILE_MAX_BYTES);
    if (bytes === null) return { error: `${source} is larger than ${capText(REFERENCED_FILE_MAX_BYTES)}, the cap for a file a configuration file names` };
    return {
      path: relative(root, path).split(sep).join("/"),
      sha256: createHash("sha256").update(bytes).digest("hex"),
      text: bytes.toString("utf8"),
    };
  } catch (error) {
    return { error: `cannot read ${source} (${errorCode(error)})` };
  }
}
