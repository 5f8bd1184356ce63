import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { type Document, isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import { checkOpenApiDocument, checkOpenApiValue, type OpenApiCheck } from "../api-registry/openapi-check";
import { type Guide, guideSchema } from "../catalog/guides";
import { type ConfigApi, type ConfigFile, configFileSchema } from "./config-file-schema";

export type ConfigPath = readonly (string | number)[];

/** One thing wrong with the file, where it is. */
export type ConfigError = { path: string; line: number | null; message: string };

/** `apis[0].environments.sso-qa.targets[1].url` */
export function formatPath(path: ConfigPath): string {
  return path.map((part, index) => (typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`)).join("");
}

export type ReadConfig =
  | {
      ok: true;
      file: ConfigFile;
      documents: Map<string, string | null>;
      /** each API's guides with their Markdown read, for the APIs whose entry lists guides */
      guides: Map<string, Guide[]>;
      errorAt: (path: ConfigPath, message: string) => ConfigError;
    }
  | { ok: false; errors: ConfigError[] };

function zodErrors(error: z.ZodError, errorAt: (path: ConfigPath, message: string) => ConfigError): ConfigError[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map((part) => (typeof part === "symbol" ? String(part) : part));
    if (issue.code === "unrecognized_keys") return issue.keys.map((key) => errorAt([...path, key], "unknown field"));
    return [errorAt(path, issue.message)];
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

async function openApiCheck(source: string | Record<string, unknown>, directory: string): Promise<OpenApiCheck | string> {
  if (typeof source !== "string") return checkOpenApiValue(source);
  const text = await readFile(resolve(directory, source), "utf8").catch(
    (error: NodeJS.ErrnoException) => `cannot read ${source} (${error.code ?? error.message})`,
  );
  return text.startsWith("cannot read ") ? text : checkOpenApiDocument(text);
}

type GuideRead = { guide: Guide } | { error: string };

/** A guide with its Markdown, read from the file it names if it names one. */
async function readGuide({ slug, title, markdown, content }: NonNullable<ConfigApi["guides"]>[number], directory: string): Promise<GuideRead> {
  if (markdown === undefined) return { guide: { slug, title, markdown: content ?? "" } };
  try {
    const text = await readFile(resolve(directory, markdown), "utf8");
    const limit = guideSchema.shape.markdown.maxLength ?? Number.POSITIVE_INFINITY;
    return text.length > limit ? { error: `${markdown} is longer than ${limit} characters` } : { guide: { slug, title, markdown: text } };
  } catch (error) {
    return { error: `cannot read ${markdown} (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
}

/**
 * Reads a configuration file, YAML or JSON, and everything it points to (OpenAPI
 * documents and guides by path), and validates all of it: every error names its path and line,
 * and none stops the search for the others.
 */
export async function readConfigFile(path: string): Promise<ReadConfig> {
  const text = await readFile(path, "utf8").catch(() => null);
  if (text === null) return { ok: false, errors: [{ path: "", line: null, message: `cannot read ${path}` }] };
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  if (document.errors.length > 0) {
    return {
      ok: false,
      errors: document.errors.map((error) => ({ path: "", line: error.linePos?.[0]?.line ?? null, message: error.message.split("\n")[0]! })),
    };
  }
  const errorAt = (at: ConfigPath, message: string): ConfigError => {
    const offset = offsetOf(document, at);
    return { path: formatPath(at), line: offset === undefined ? null : lines.linePos(offset).line, message };
  };
  const parsed = configFileSchema.safeParse(document.toJS() ?? {});
  if (!parsed.success) return { ok: false, errors: zodErrors(parsed.error, errorAt) };

  const errors: ConfigError[] = [];
  const documents = new Map<string, string | null>();
  const guides = new Map<string, Guide[]>();
  await Promise.all(
    parsed.data.apis.map(async (api, index) => {
      if (!api.guides) return;
      const read = await Promise.all(api.guides.map((guide) => readGuide(guide, dirname(path))));
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
    const checked = await openApiCheck(source, dirname(path));
    if (typeof checked === "string") errors.push(errorAt(at, checked));
    else if (checked.ok) documents.set(key, checked.json);
    else errors.push(...checked.errors.map((error) => errorAt(at, `${error.pointer || "(document)"}: ${error.message}`)));
  };
  await Promise.all(
    parsed.data.apis.flatMap((api, index) => [
      readDocument(api.slug, api.openapi, ["apis", index, "openapi"]),
      ...(api.versions ?? []).map((version, at) => readDocument(`${api.slug} ${version.version}`, version.openapi, ["apis", index, "versions", at, "openapi"])),
    ]),
  );
  return errors.length > 0 ? { ok: false, errors } : { ok: true, file: parsed.data, documents, guides, errorAt };
}
