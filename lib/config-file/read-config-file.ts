import { realpath } from "node:fs/promises";
import { dirname, extname } from "node:path";
import { type Document, isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { checkOpenApiDocument, checkOpenApiValue, type OpenApiCheck } from "../api-registry/openapi-check";
import { type Guide, guideSchema } from "../catalog/guides";
import { type ConfigApi, type ConfigFile, configFileSchema } from "./config-file-schema";
import { keyMessage } from "../http/problem";
import { jsonSyntaxError } from "./json-syntax";
import { salvage } from "./salvage";
import { CONFIG_FILE_MAX_BYTES, capText, errorCode, type ReferencedFile, readCapped, readReferencedFile } from "./referenced-file";

export type ConfigPath = readonly (string | number)[];

/** One thing wrong with the file, where it is. */
export type ConfigError = { path: string; line: number | null; column?: number; message: string };

/** `apis[0].environments.sso-qa.targets[1].url` */
export function formatPath(path: ConfigPath): string {
  return path.map((part, index) => (typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`)).join("");
}

/** A file read and checked, or, when it has errors, what of it passed (lib/config-file/salvage.ts). */
export type CheckedConfig = {
  file: ConfigFile;
  documents: Map<string, string | null>;
  /** each API's guides with their Markdown read, for the APIs whose entry lists guides */
  guides: Map<string, Guide[]>;
  /** every file the configuration file names, once each, by path */
  files: ReferencedFile[];
  errorAt: (path: ConfigPath, message: string) => ConfigError;
  /** every environment slug the file names, the entries that did not pass included */
  namedEnvironments: ReadonlySet<string>;
};

export type ReadConfig =
  | ({ ok: true } & CheckedConfig)
  | {
      ok: false;
      errors: ConfigError[];
      /** what passed, for the checks against the database to run in the same pass; none when the text is not YAML or JSON */
      partial?: CheckedConfig;
    };

function zodErrors(error: z.ZodError, errorAt: (path: ConfigPath, message: string) => ConfigError): ConfigError[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map((part) => (typeof part === "symbol" ? String(part) : part));
    if (issue.code === "unrecognized_keys") return issue.keys.map((key) => errorAt([...path, key], "unknown field"));
    return [errorAt(path, keyMessage(issue))];
  });
}

/** Where the value at `path` starts: a mapping entry's key, a list item, or the nearest enclosing one that exists. */
function offsetOf(document: Document, path: ConfigPath): number | undefined {
  for (let depth = path.length; depth > 0; depth--) {
    const parent = depth === 1 ? document.contents : document.getIn(path.slice(0, depth - 1), true);
    const step = path[depth - 1];
    if (isMap(parent)) {
      const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === step);
      if (pair && isNode(pair.key) && pair.key.range) return pair.key.range[0];
    } else if (isSeq(parent) && typeof step === "number") {
      const item = parent.items[step];
      if (isNode(item) && item.range) return item.range[0];
    }
  }
  return isNode(document.contents) ? document.contents.range?.[0] : undefined;
}

/** Where files that the configuration file names are looked up, and the folder they must stay in. */
type Folders = { directory: string; root: string };

/** Reads each named file once, keeping what `config diff` shows of it. */
function fileReader({ directory, root }: Folders, files: Map<string, ReferencedFile>) {
  return async (source: string): Promise<string | { error: string }> => {
    const read = await readReferencedFile(source, directory, root);
    if ("error" in read) return read;
    files.set(read.path, { path: read.path, sha256: read.sha256 });
    return read.text;
  };
}

type ReadFile = ReturnType<typeof fileReader>;

async function openApiCheck(source: string | Record<string, unknown>, readFile: ReadFile): Promise<OpenApiCheck | string> {
  if (typeof source !== "string") return checkOpenApiValue(source);
  const text = await readFile(source);
  return typeof text === "string" ? checkOpenApiDocument(text) : text.error;
}

type GuideRead = { guide: Guide } | { error: string };

/** A guide with its Markdown, read from the file it names if it names one. */
async function readGuide({ slug, title, markdown, content }: NonNullable<ConfigApi["guides"]>[number], readFile: ReadFile): Promise<GuideRead> {
  if (markdown === undefined) return { guide: { slug, title, markdown: content ?? "" } };
  const text = await readFile(markdown);
  if (typeof text !== "string") return text;
  const limit = guideSchema.shape.markdown.maxLength ?? Number.POSITIVE_INFINITY;
  return text.length > limit ? { error: `${markdown} is longer than ${limit} characters` } : { guide: { slug, title, markdown: text } };
}

/** The configuration file's text, at most `CONFIG_FILE_MAX_BYTES`, or why not. */
async function configText(path: string): Promise<string | { error: string }> {
  try {
    const bytes = await readCapped(path, CONFIG_FILE_MAX_BYTES);
    return bytes === null ? { error: `larger than ${capText(CONFIG_FILE_MAX_BYTES)}, the cap for a configuration file` } : bytes.toString("utf8");
  } catch {
    return { error: `cannot read ${path}` };
  }
}

/** The configuration file's folder and the root its files must lie in, symbolic links resolved. */
async function foldersOf(path: string, root: string | undefined): Promise<Folders | { error: string }> {
  const directory = await realpath(dirname(path));
  try {
    return { directory, root: root === undefined ? directory : await realpath(root) };
  } catch (error) {
    return { error: `cannot read --root ${root} (${errorCode(error)})` };
  }
}

/**
 * Reads a configuration file, YAML or JSON, and everything it points to (OpenAPI
 * documents and guides by path, inside its folder or `root`), and validates all of it: every
 * error names its path and line, and none stops the search for the others.
 */
export async function readConfigFile(path: string, options: { root?: string } = {}): Promise<ReadConfig> {
  const text = await configText(path);
  if (typeof text !== "string") return { ok: false, errors: [{ path: "", line: null, message: text.error }] };
  const folders = await foldersOf(path, options.root);
  if ("error" in folders) return { ok: false, errors: [{ path: "", line: null, message: folders.error }] };
  // YAML reads JSON too, but words a JSON mistake in its own terms.
  const jsonError = extname(path).toLowerCase() === ".json" ? jsonSyntaxError(text) : undefined;
  if (jsonError) return { ok: false, errors: [{ path: "", ...jsonError, message: `not valid JSON: ${jsonError.message}` }] };
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  if (document.errors.length > 0) {
    return {
      ok: false,
      errors: document.errors.map((error) => ({ path: "", line: error.linePos?.[0]?.line ?? null, message: error.message.split("\n")[0]! })),
    };
  }
  const inFile = (at: ConfigPath, message: string): ConfigError => {
    const offset = offsetOf(document, at);
    return { path: formatPath(at), line: offset === undefined ? null : lines.linePos(offset).line, message };
  };
  let raw: unknown;
  try {
    raw = document.toJS() ?? {};
  } catch (error) {
    // `yaml` refuses aliases that expand past its bound (a billion laughs) only as it builds the values.
    return { ok: false, errors: [{ path: "", line: null, message: `cannot be read: ${(error as Error).message}` }] };
  }
  const parsed = configFileSchema.safeParse(raw);
  const salvaged = parsed.success ? undefined : salvage(raw);
  const file = parsed.success ? parsed.data : salvaged!.file;
  const errorAt = salvaged ? (at: ConfigPath, message: string) => inFile(salvaged.pathInFile(at), message) : inFile;
  const namedEnvironments = salvaged?.namedEnvironments ?? new Set(file.environments.map((env) => env.slug));

  const errors: ConfigError[] = parsed.success ? [] : zodErrors(parsed.error, inFile);
  const documents = new Map<string, string | null>();
  const guides = new Map<string, Guide[]>();
  const files = new Map<string, ReferencedFile>();
  const readFile = fileReader(folders, files);
  await Promise.all(
    file.apis.map(async (api, index) => {
      if (!api.guides) return;
      const read = await Promise.all(api.guides.map((guide) => readGuide(guide, readFile)));
      read.forEach((result, at) => {
        if ("error" in result) errors.push(errorAt(["apis", index, "guides", at, "markdown"], result.error));
      });
      guides.set(
        api.slug,
        read.flatMap((result) => ("guide" in result ? [result.guide] : [])),
      );
    }),
  );
  // Each API's document by its slug, and each of its versions' by `slug version`.
  const readDocument = async (key: string, source: ConfigApi["openapi"], at: ConfigPath) => {
    if (source === undefined) return documents.set(key, null);
    const checked = await openApiCheck(source, readFile);
    if (typeof checked === "string") errors.push(errorAt(at, checked));
    else if (checked.ok) documents.set(key, checked.json);
    else errors.push(...checked.errors.map((error) => errorAt(at, `${error.pointer || "(document)"}: ${error.message}`)));
  };
  await Promise.all(
    file.apis.flatMap((api, index) => [
      readDocument(api.slug, api.openapi, ["apis", index, "openapi"]),
      ...(api.versions ?? []).map((version, at) => readDocument(`${api.slug} ${version.version}`, version.openapi, ["apis", index, "versions", at, "openapi"])),
    ]),
  );
  const listed = [...files.values()].sort((a, b) => a.path.localeCompare(b.path));
  const checked = { file, documents, guides, files: listed, errorAt, namedEnvironments };
  return errors.length > 0 ? { ok: false, errors, partial: checked } : { ok: true, ...checked };
}
