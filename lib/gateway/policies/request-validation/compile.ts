import type { ErrorObject, ValidateFunction } from "ajv";
import type Ajv from "ajv/dist/core";
import type { HeaderReader } from "../../../http/message";
import { createDocumentAjv, schemaRef } from "./document-ajv";
import { pathParameterReader } from "./path-parameters";
import {
  decodeText,
  headerValue,
  NotInStyle,
  type ParameterLocation,
  type ParameterSerialization,
  type ParameterShape,
  pathValue,
  queryPairs,
  queryValue,
} from "./parameters";

/** One way a request differs from its operation: a body error points into the body, a parameter's names it. */
export type RequestValidationError = { in: "body"; pointer: string; message: string } | { in: ParameterLocation; name: string; message: string };

/** What a request brings to its check: the path after the API's base, the raw query, its headers and its whole body. */
export type RequestFacts = { path: string; search: string; headers: HeaderReader; body: Uint8Array | null };

export type OperationValidator = {
  /** whether the operation declares a body, so that the check needs the bytes */
  readsBody: boolean;
  validate(request: RequestFacts): RequestValidationError[];
};

/** The validator of a document's operation, by method and path template; undefined for one it does not declare. */
export type DocumentValidators = (method: string, template: string) => OperationValidator | undefined;

/** At most this many errors are reported for a call: enough to fix it, bounded for the answer and the request log. */
export const MAX_VALIDATION_ERRORS = 20;

type Json = Record<string, unknown>;
type Located = { value: Json; pointer: string };

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** OpenAPI ignores header parameters of these names: the operation's other fields describe them. */
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pointerSegment(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The object at `pointer`, following a chain of local `$ref`s; undefined where there is none. */
function resolve(document: Json, value: unknown, pointer: string): Located | undefined {
  let current: unknown = value;
  let at = pointer;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith("#/") || hops > 16) return undefined;
    at = ref.slice(1);
    current = at
      .slice(1)
      .split("/")
      .reduce<unknown>(
        (node, segment) =>
          isObject(node) || Array.isArray(node) ? (node as Json)[decodeText(segment).replaceAll("~1", "/").replaceAll("~0", "~")] : undefined,
        document,
      );
  }
  return isObject(current) ? { value: current, pointer: at } : undefined;
}

function typesOf(schema: Json): string[] {
  const { type } = schema;
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((each): each is string => typeof each === "string") : [];
}

function shapeOf(schema: Json | undefined): ParameterShape {
  if (!schema) return "primitive";
  const types = typesOf(schema);
  if (types.includes("array") || (types.length === 0 && "items" in schema)) return "array";
  if (types.includes("object") || (types.length === 0 && "properties" in schema)) return "object";
  return "primitive";
}

/** `application/json; charset=utf-8` as `application/json`. */
function mediaType(value: string): string {
  return value.split(";", 1)[0]!.trim().toLowerCase();
}

function isJson(type: string): boolean {
  return type === "application/json" || type.endsWith("+json");
}

/** The declared media type that names `type` most closely: itself, then `type/*`, then `*\/*`. */
function declaredFor(declared: ReadonlyMap<string, unknown>, type: string): string | undefined {
  if (declared.has(type)) return type;
  const range = `${type.split("/", 1)[0]}/*`;
  if (declared.has(range)) return range;
  return declared.has("*/*") ? "*/*" : undefined;
}

function errorMessage(error: ErrorObject): string {
  return error.message ?? `fails ${error.keyword}`;
}

/** Ajv's errors, each pointing at the value it concerns: a missing or extra property at that property. */
function bodyErrors(errors: readonly ErrorObject[]): RequestValidationError[] {
  return errors.map((error) => {
    const params = error.params as { missingProperty?: string; additionalProperty?: string };
    const property = params.missingProperty ?? params.additionalProperty;
    const pointer = property === undefined ? error.instancePath : `${error.instancePath}/${pointerSegment(property)}`;
    return { in: "body", pointer, message: errorMessage(error) };
  });
}

type CompiledParameter = ParameterSerialization & { required: boolean; json: boolean; validate: ValidateFunction | undefined };

function compileParameter(document: Json, ajv: Ajv, located: Located): CompiledParameter | undefined {
  const { value, pointer } = located;
  const name = value.name;
  const location = value.in;
  if (typeof name !== "string" || (location !== "path" && location !== "query" && location !== "header")) return undefined;
  if (location === "header" && IGNORED_HEADERS.has(name.toLowerCase())) return undefined;
  const contentType = isObject(value.content) ? Object.keys(value.content)[0] : undefined;
  const schemaPointer = contentType === undefined ? `${pointer}/schema` : `${pointer}/content/${pointerSegment(contentType)}/schema`;
  const schema = contentType === undefined ? value.schema : (value.content as Json)[contentType];
  const resolved = resolve(document, contentType === undefined ? schema : isObject(schema) ? schema.schema : undefined, schemaPointer);
  const style = typeof value.style === "string" ? value.style : location === "query" ? "form" : "simple";
  return {
    name,
    in: location,
    style,
    explode: typeof value.explode === "boolean" ? value.explode : style === "form",
    shape: shapeOf(resolved?.value),
    properties: isObject(resolved?.value.properties) ? Object.keys(resolved.value.properties) : [],
    required: location === "path" || value.required === true,
    json: contentType !== undefined && isJson(mediaType(contentType)),
    validate: resolved ? ajv.compile(schemaRef(resolved.pointer)) : undefined,
  };
}

/** The operation's parameters with the path item's, an operation's own replacing one of the same name and location. */
function parametersOf(document: Json, pathItem: Located, operation: Located): Located[] {
  const byKey = new Map<string, Located>();
  for (const owner of [pathItem, operation]) {
    const list = owner.value.parameters;
    if (!Array.isArray(list)) continue;
    list.forEach((entry, index) => {
      const located = resolve(document, entry, `${owner.pointer}/parameters/${index}`);
      if (located) byKey.set(`${String(located.value.in)} ${String(located.value.name)}`, located);
    });
  }
  return [...byKey.values()];
}

function parameterInput(
  parameter: CompiledParameter,
  request: RequestFacts,
  pathValues: Map<string, string> | undefined,
  query: () => ReturnType<typeof queryPairs>,
): unknown {
  if (parameter.in === "path") {
    const raw = pathValues?.get(parameter.name);
    return raw === undefined ? undefined : parameter.json ? decodeURIComponent(raw) : pathValue(raw, parameter);
  }
  if (parameter.in === "header") {
    const value = request.headers.get(parameter.name);
    return value === null || parameter.json ? (value ?? undefined) : headerValue(value, parameter);
  }
  if (parameter.json) {
    const raw = query().find(([field]) => field === parameter.name)?.[1];
    return raw === undefined ? undefined : decodeURIComponent(raw.replaceAll("+", " "));
  }
  return queryValue(query(), parameter);
}

function checkParameter(parameter: CompiledParameter, input: unknown): RequestValidationError[] {
  const named = (message: string): RequestValidationError[] => [{ in: parameter.in, name: parameter.name, message }];
  if (input === undefined) return parameter.required ? named("is required") : [];
  let value = input;
  if (parameter.json) {
    try {
      value = JSON.parse(input as string);
    } catch {
      return named("is not valid JSON");
    }
  }
  if (!parameter.validate || parameter.validate(value)) return [];
  return (parameter.validate.errors ?? []).map((error) => ({
    in: parameter.in,
    name: parameter.name,
    message: error.instancePath === "" ? errorMessage(error) : `${error.instancePath}: ${errorMessage(error)}`,
  }));
}

type CompiledBody = { required: boolean; media: Map<string, ValidateFunction | undefined> };

function compileBody(document: Json, ajv: Ajv, operation: Located): CompiledBody | undefined {
  const located = resolve(document, operation.value.requestBody, `${operation.pointer}/requestBody`);
  if (!located || !isObject(located.value.content)) return undefined;
  const media = new Map<string, ValidateFunction | undefined>();
  for (const [type, entry] of Object.entries(located.value.content)) {
    const schema =
      isObject(entry) && "schema" in entry ? resolve(document, entry.schema, `${located.pointer}/content/${pointerSegment(type)}/schema`) : undefined;
    media.set(mediaType(type), schema ? ajv.compile(schemaRef(schema.pointer)) : undefined);
  }
  return { required: located.value.required === true, media };
}

function checkBody(body: CompiledBody, request: RequestFacts): RequestValidationError[] {
  if (request.body === null || request.body.byteLength === 0) {
    return body.required ? [{ in: "body", pointer: "", message: "is required" }] : [];
  }
  const declared = [...body.media.keys()].join(", ");
  const contentType = request.headers.get("content-type");
  if (contentType === null) return [{ in: "header", name: "content-type", message: `is required with a body, one of: ${declared}` }];
  const type = mediaType(contentType);
  const match = declaredFor(body.media, type);
  if (match === undefined) return [{ in: "header", name: "content-type", message: `must be one of: ${declared}` }];
  const validate = body.media.get(match);
  if (!validate || !isJson(type)) return [];
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength).toString("utf8"));
  } catch {
    return [{ in: "body", pointer: "", message: "is not valid JSON" }];
  }
  try {
    return validate(value) ? [] : bodyErrors(validate.errors ?? []);
  } catch (error) {
    // A recursive schema walks a value as deep as it is nested: past the stack, the value is refused, not the gateway.
    if (error instanceof RangeError) return [{ in: "body", pointer: "", message: "is nested too deeply to check" }];
    throw error;
  }
}

function compileOperation(document: Json, ajvs: { body: Ajv; parameters: Ajv }, template: string, pathItem: Located, operation: Located): OperationValidator {
  const parameters = parametersOf(document, pathItem, operation).flatMap((located) => compileParameter(document, ajvs.parameters, located) ?? []);
  const body = compileBody(document, ajvs.body, operation);
  const readPath = parameters.some((parameter) => parameter.in === "path") ? pathParameterReader(template) : undefined;
  return {
    readsBody: body !== undefined,
    validate(request) {
      const errors: RequestValidationError[] = [];
      const pathValues = readPath?.(request.path);
      let pairs: ReturnType<typeof queryPairs> | undefined;
      const query = () => (pairs ??= queryPairs(request.search));
      for (const parameter of parameters) {
        let input: unknown;
        try {
          input = parameterInput(parameter, request, pathValues, query);
        } catch (error) {
          if (!(error instanceof NotInStyle || error instanceof URIError)) throw error;
          errors.push({ in: parameter.in, name: parameter.name, message: `is not written in the ${parameter.style} style` });
          continue;
        }
        errors.push(...checkParameter(parameter, input));
      }
      if (body) errors.push(...checkBody(body, request));
      return errors.length > MAX_VALIDATION_ERRORS ? errors.slice(0, MAX_VALIDATION_ERRORS) : errors;
    },
  };
}

/**
 * The document as requests see it: a `readOnly` property is one a client does not send
 * (OpenAPI 3.0 §4.7.24.3, JSON Schema's meaning in 3.1), so `required` does not ask for it.
 */
function forRequests(document: Json): Json {
  const copy = structuredClone(document);
  const visit = (node: unknown, pointer: string): void => {
    if (Array.isArray(node)) return node.forEach((item, index) => visit(item, `${pointer}/${index}`));
    if (!isObject(node)) return;
    const { required, properties } = node;
    if (Array.isArray(required) && isObject(properties)) {
      node.required = required.filter((name) => {
        const property = typeof name === "string" ? resolve(copy, properties[name], `${pointer}/properties/${pointerSegment(name)}`) : undefined;
        return property?.value.readOnly !== true;
      });
    }
    for (const [key, value] of Object.entries(node)) visit(value, `${pointer}/${pointerSegment(key)}`);
  };
  visit(copy, "");
  return copy;
}

/**
 * Every operation's validator of an OpenAPI 3.0 or 3.1 document, compiled now, once. Null
 * for anything else (Swagger 2.0), or a document Ajv refuses. An operation whose schemas
 * Ajv cannot compile (a `$ref` outside the document, a pattern JavaScript cannot read) is
 * left unchecked.
 */
export function compileDocumentValidators(input: unknown): DocumentValidators | null {
  if (!isObject(input) || typeof input.openapi !== "string" || !isObject(input.paths)) return null;
  let document: Json;
  let ajvs: { body: Ajv; parameters: Ajv };
  try {
    document = forRequests(input);
    ajvs = { body: createDocumentAjv(document, { coerce: false }), parameters: createDocumentAjv(document, { coerce: true }) };
  } catch {
    // Ajv refuses the document as a whole (two schemas with one `$id`), or it is nested past the stack: none of its operations can be checked.
    return null;
  }
  const operations = new Map<string, OperationValidator>();
  for (const [template, item] of Object.entries(document.paths as Json)) {
    const pathItem = resolve(document, item, `/paths/${pointerSegment(template)}`);
    if (!template.startsWith("/") || !pathItem) continue;
    for (const method of METHODS) {
      const operation = resolve(document, pathItem.value[method], `${pathItem.pointer}/${method}`);
      if (!operation) continue;
      try {
        operations.set(`${method.toUpperCase()} ${template}`, compileOperation(document, ajvs, template, pathItem, operation));
      } catch {
        // Left unchecked, as documented above: a schema the document's author must fix, not a reason to refuse its calls.
      }
    }
  }
  return (method, template) => operations.get(`${method} ${template}`) ?? (method === "HEAD" ? operations.get(`GET ${template}`) : undefined);
}
