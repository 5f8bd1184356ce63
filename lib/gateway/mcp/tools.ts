import { routeKey } from "../policies/policy-set";
import { type Deprecation, operationKey } from "../versions";
import { type McpSettings, TOOL_NAME } from "./settings";

type JsonObject = Record<string, unknown>;

/** Where a tool's argument goes in the call it stands for. */
export type ToolArgument = { property: string; name: string; in: "path" | "query" | "header" };

/** An MCP tool and the gateway call it stands for. */
export type McpTool = {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonObject & { type: "object" };
  annotations: { title?: string; readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean };
  method: string;
  /** the document's path template, e.g. `/v1/items/{id}` */
  path: string;
  arguments: ToolArgument[];
  /** the property holding the JSON body, when the operation takes one */
  body?: string;
};

/** What the derivation reads of a version besides its document: its own and its operations' deprecations. */
export type VersionLife = { deprecation: Deprecation | undefined; operations: ReadonlyMap<string, Deprecation> };

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;
const MAX_NAME = 64;
/** How deep `$ref`s are followed inside one schema: a recursive schema stops there with an open schema. */
const MAX_REF_DEPTH = 8;

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** The object a local `$ref` (`#/components/schemas/Item`) points at in `document`; undefined for any other. */
function pointed(document: JsonObject, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let at: unknown = document;
  for (const part of ref.slice(2).split("/")) {
    if (!isObject(at)) return undefined;
    at = at[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return at;
}

/** `value` with every local `$ref` replaced by what it points at: MCP clients read `inputSchema` without the document around it. */
export function resolveRefs(document: JsonObject, value: unknown, depth = 0): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveRefs(document, item, depth));
  if (!isObject(value)) return value;
  if (typeof value.$ref === "string") {
    const target = pointed(document, value.$ref);
    if (target === undefined || depth >= MAX_REF_DEPTH) return { description: `See ${value.$ref} in the API's OpenAPI document.` };
    const { $ref: _, ...siblings } = value;
    const resolved = resolveRefs(document, target, depth + 1);
    return isObject(resolved) ? { ...resolved, ...(resolveRefs(document, siblings, depth) as JsonObject) } : resolved;
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveRefs(document, item, depth)]));
}

/** `name` made a valid tool name: other characters become `_`, and it is cut to 64. */
export function sanitisedToolName(name: string): string {
  const sanitised = name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, MAX_NAME);
  return sanitised.length > 0 ? sanitised : "operation";
}

/** `base`, or `base_2`, `base_3`... cut to fit 64 characters: the first not in `taken`. */
function unique(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
  taken.add(name);
  return name;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The sentence that opens a deprecated operation's description: an agent should prefer another. */
function deprecationNote(operation: JsonObject, deprecation: Deprecation | undefined): string | undefined {
  if (!deprecation && operation.deprecated !== true) return undefined;
  const since = deprecation ? ` since ${day(deprecation.deprecatedAt)}` : "";
  const sunset = deprecation?.sunsetAt ? `; it stops working on ${day(deprecation.sunsetAt)}` : "";
  return `DEPRECATED${since}${sunset}: prefer another operation where one exists.`;
}

type Parameter = { name: string; in: "path" | "query" | "header"; required: boolean; schema: JsonObject; description?: string };

/** The path item's and the operation's parameters (the operation's win), resolved; cookies are no tool argument. */
function parametersOf(document: JsonObject, item: JsonObject, operation: JsonObject): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const raw of [...asArray(item.parameters), ...asArray(operation.parameters)]) {
    const parameter = resolveRefs(document, raw);
    if (!isObject(parameter) || typeof parameter.name !== "string") continue;
    if (parameter.in !== "path" && parameter.in !== "query" && parameter.in !== "header") continue;
    if (parameter.in === "header" && /^(authorization|accept|content-type)$/i.test(parameter.name)) continue;
    byKey.set(`${parameter.in} ${parameter.name}`, {
      name: parameter.name,
      in: parameter.in,
      required: parameter.in === "path" || parameter.required === true,
      schema: isObject(parameter.schema) ? parameter.schema : {},
      ...(typeof parameter.description === "string" ? { description: parameter.description } : {}),
    });
  }
  return [...byKey.values()];
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The JSON schema of an operation's JSON body, resolved; undefined when it takes none. */
function bodySchemaOf(document: JsonObject, operation: JsonObject): { schema: JsonObject; required: boolean; description?: string } | undefined {
  const body = resolveRefs(document, operation.requestBody);
  if (!isObject(body) || !isObject(body.content)) return undefined;
  const media = Object.entries(body.content).find(([type]) => /^application\/([\w.+-]+\+)?json\b/i.test(type))?.[1];
  if (!isObject(media)) return undefined;
  return {
    schema: isObject(media.schema) ? media.schema : {},
    required: body.required === true,
    ...(typeof body.description === "string" ? { description: body.description } : {}),
  };
}

/** The property an argument takes in `inputSchema`: its own name, or prefixed by where it goes when another argument has that name. */
function propertyNames(parameters: readonly Parameter[], hasBody: boolean): string[] {
  const counts = new Map<string, number>();
  for (const { name } of parameters) counts.set(name, (counts.get(name) ?? 0) + 1);
  if (hasBody) counts.set("body", (counts.get("body") ?? 0) + 1);
  return parameters.map(({ name, in: where }) => ((counts.get(name) ?? 0) > 1 ? `${where}_${name}` : name));
}

type Candidate = { method: string; path: string; operation: JsonObject; item: JsonObject };

/** The document's operations, in its order, that the settings' `include` and `exclude` leave. */
function candidates(document: JsonObject, settings: McpSettings): Candidate[] {
  const include = settings.include ? new Set(settings.include) : undefined;
  const exclude = new Set(settings.exclude ?? []);
  const found: Candidate[] = [];
  for (const [path, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      const key = routeKey(method.toUpperCase(), path);
      if (!isObject(operation) || (include && !include.has(key)) || exclude.has(key)) continue;
      found.push({ method: method.toUpperCase(), path, operation, item });
    }
  }
  return found;
}

/**
 * The tools of a version's OpenAPI document under an API's MCP settings: one per operation
 * `include` and `exclude` leave, named by `toolNames` or its `operationId` (else method and
 * path) made valid and unique, described by its summary and description with its deprecation
 * first, its `inputSchema` the path, query and header parameters and the JSON body with every
 * `$ref` resolved.
 */
export function deriveTools(document: JsonObject, settings: McpSettings, life: VersionLife): McpTool[] {
  const found = candidates(document, settings);
  const renamed = settings.toolNames ?? {};
  const taken = new Set(found.map(({ method, path }) => renamed[routeKey(method, path)]).filter((name): name is string => name !== undefined));
  return found.map(({ method, path, operation, item }) => {
    const key = routeKey(method, path);
    const own = renamed[key];
    const base = typeof operation.operationId === "string" ? operation.operationId : `${method.toLowerCase()}${path}`;
    const name = own !== undefined && TOOL_NAME.test(own) ? own : unique(sanitisedToolName(base), taken);
    const parameters = parametersOf(document, item, operation);
    const body = bodySchemaOf(document, operation);
    const properties = propertyNames(parameters, body !== undefined);
    const schemaProperties: JsonObject = {};
    const required: string[] = [];
    parameters.forEach((parameter, index) => {
      const property = properties[index]!;
      const description = parameter.description ?? `The ${parameter.in} parameter ${parameter.name}.`;
      schemaProperties[property] = { ...parameter.schema, description };
      if (parameter.required) required.push(property);
    });
    if (body) {
      schemaProperties.body = { ...body.schema, ...(body.description ? { description: body.description } : {}) };
      if (body.required) required.push("body");
    }
    const summary = typeof operation.summary === "string" ? operation.summary : undefined;
    const deprecation = deprecationNote(operation, life.operations.get(operationKey(method, path)) ?? life.deprecation);
    const text = [deprecation, summary, typeof operation.description === "string" ? operation.description : undefined].filter(Boolean);
    const readOnly = method === "GET" || method === "HEAD";
    return {
      name,
      ...(summary ? { title: summary } : {}),
      description: text.length > 0 ? text.join("\n\n") : `${method} ${path}`,
      inputSchema: { type: "object", properties: schemaProperties, ...(required.length > 0 ? { required } : {}) },
      annotations: {
        ...(summary ? { title: summary } : {}),
        readOnlyHint: readOnly,
        ...(readOnly ? {} : { destructiveHint: method === "DELETE", idempotentHint: method === "PUT" || method === "DELETE" }),
      },
      method,
      path,
      arguments: parameters.map((parameter, index) => ({ property: properties[index]!, name: parameter.name, in: parameter.in })),
      ...(body ? { body: "body" } : {}),
    };
  });
}
