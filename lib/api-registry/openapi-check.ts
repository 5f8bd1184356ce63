import { Validator } from "@seriousme/openapi-schema-validator";
import type { ErrorObject } from "ajv";
import { parse } from "yaml";

/** One thing wrong with a document: where (a JSON pointer, "" for the whole) and what. */
export type OpenApiError = { pointer: string; message: string };

export type OpenApiCheck = { ok: true; json: string; version: string } | { ok: false; errors: OpenApiError[] };

/** Enough to act on; a broken document can fail the same rule hundreds of times. */
const MAX_ERRORS = 20;

/**
 * Deeper than any API's document nests, and well inside the stack that the checks below walk a
 * document on (its copy, the schema validator, JSON text): past it, a document is refused
 * by name rather than failing them.
 */
export const MAX_DOCUMENT_DEPTH = 256;

const validator = new Validator({ allErrors: true });

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

function unescapePointer(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** What an ajv error means, with the member it names when it names one. */
function schemaError(error: ErrorObject): OpenApiError {
  const params = error.params as Record<string, unknown>;
  const member = params.additionalProperty ?? params.unevaluatedProperty;
  const detail = typeof member === "string" ? ` (${member})` : params.allowedValues ? `: ${(params.allowedValues as unknown[]).join(", ")}` : "";
  return { pointer: error.instancePath, message: `${error.message ?? "is not valid"}${detail}` };
}

/** ajv also reports that a combinator failed as a whole; the errors inside it say more. */
const COMBINATORS = new Set(["if", "oneOf", "anyOf", "allOf", "not"]);

function specificErrors(errors: ErrorObject[]): ErrorObject[] {
  const specific = errors.filter((error) => !COMBINATORS.has(error.keyword));
  return specific.length > 0 ? specific : errors;
}

function resolvePointer(document: unknown, fragment: string): boolean {
  let node = document;
  for (const segment of fragment.split("/").slice(1)) {
    if (node === null || typeof node !== "object") return false;
    const key = decodeURIComponent(unescapePointer(segment));
    if (!Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/** Every `$ref` that is external (never fetched) or that points nowhere in this document. */
function brokenRefs(document: unknown): OpenApiError[] {
  const errors: OpenApiError[] = [];
  const visit = (node: unknown, pointer: string) => {
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${escapePointer(key)}`;
      if (key === "$ref" && typeof value === "string") {
        if (!value.startsWith("#")) errors.push({ pointer: at, message: `refers outside the document ("${value}"); Gatehouse fetches nothing, so inline it` });
        else if (value.startsWith("#/") && !resolvePointer(document, value.slice(1))) errors.push({ pointer: at, message: `points nowhere ("${value}")` });
      } else visit(value, at);
    }
  };
  visit(document, "");
  return errors;
}

/** The pointer of an object or array nested deeper than `MAX_DOCUMENT_DEPTH`, if one is, found without recursion. */
function tooDeep(document: object): string | undefined {
  type Node = { value: unknown; depth: number; key?: string; parent?: Node };
  const pending: Node[] = [{ value: document, depth: 0 }];
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.value === null || typeof node.value !== "object") continue;
    if (node.depth > MAX_DOCUMENT_DEPTH) {
      const keys: string[] = [];
      for (let at: Node | undefined = node; at?.key !== undefined; at = at.parent) keys.unshift(escapePointer(at.key));
      return keys.map((key) => `/${key}`).join("");
    }
    for (const [key, value] of Object.entries(node.value)) pending.push({ value, depth: node.depth + 1, key, parent: node });
  }
  return undefined;
}

/**
 * Parses a document (JSON or YAML) and validates it against the JSON Schema of
 * its own OpenAPI version, 3.0 or 3.1, then checks that every `$ref` resolves
 * inside the document. Nothing is fetched.
 */
export async function checkOpenApiDocument(text: string): Promise<OpenApiCheck> {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    // The YAML parser descends one call per level: a document nested thousands of levels deep exhausts the stack.
    if (error instanceof RangeError || (error as { code?: unknown }).code === "RESOURCE_EXHAUSTION") return { ok: false, errors: [nestedTooDeep("")] };
    return { ok: false, errors: [{ pointer: "", message: `is neither JSON nor YAML: ${(error as Error).message.split("\n")[0]}` }] };
  }
  return checkOpenApiValue(document);
}

export async function checkOpenApiValue(document: unknown): Promise<OpenApiCheck> {
  if (document === null || typeof document !== "object" || Array.isArray(document)) {
    return { ok: false, errors: [{ pointer: "", message: "must be an object" }] };
  }
  const version = (document as { openapi?: unknown }).openapi;
  if (typeof version !== "string" || !/^3\.[01]\.\d+$/.test(version)) {
    return { ok: false, errors: [{ pointer: "/openapi", message: "must be an OpenAPI version 3.0.x or 3.1.x" }] };
  }
  const deep = tooDeep(document);
  if (deep !== undefined) return { ok: false, errors: [nestedTooDeep(deep)] };
  // An object, never a string: the validator reads a one-line string as a file name.
  const result = await validator.validate(structuredClone(document) as Record<string, unknown>);
  if (!result.valid) {
    const schemaErrors = typeof result.errors === "string" || !result.errors ? [] : specificErrors(result.errors).map(schemaError);
    const errors = [...schemaErrors, ...brokenRefs(document)];
    const unique = [...new Map(errors.map((error) => [`${error.pointer}\n${error.message}`, error])).values()];
    if (unique.length === 0) unique.push({ pointer: "", message: String(result.errors ?? "is not valid") });
    return { ok: false, errors: unique.slice(0, MAX_ERRORS) };
  }
  return { ok: true, json: JSON.stringify(document), version };
}

function nestedTooDeep(pointer: string): OpenApiError {
  return { pointer, message: `nests objects and arrays more than ${MAX_DOCUMENT_DEPTH} levels deep` };
}

/** The errors as lines a person reads: `pointer: message`, the whole document as "(document)". */
export function describeOpenApiErrors(errors: readonly OpenApiError[]): string {
  return errors.map((error) => `${error.pointer || "(document)"}: ${error.message}`).join("\n");
}
