/**
 * What changed between two OpenAPI 3.0/3.1 documents, operation by operation, with
 * the changes that can break an existing client marked. Local `$ref`s are followed;
 * nothing is fetched. A change is breaking when a client that worked against the
 * first document can fail against the second: an operation, parameter or response
 * field it used is gone, it must send something it did not send, or a value it
 * sent is no longer accepted.
 */

type Json = Record<string, unknown>;

export type Change = { breaking: boolean; message: string };

export type OperationRef = { method: string; path: string; summary: string };

export type ChangedOperation = OperationRef & { breaking: boolean; changes: Change[] };

export type OpenApiDiff = {
  added: OperationRef[];
  removed: OperationRef[];
  changed: ChangedOperation[];
  /** true when any operation was removed or any change is breaking */
  breaking: boolean;
};

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** A backstop: circular schemas already stop where a `$ref` pair repeats on the way down. */
const MAX_DEPTH = 32;

function record(value: unknown): Json | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Follows a chain of local `$ref`s; a ref that points nowhere (or loops) reads as an empty object. */
function deref(document: Json, value: unknown): Json {
  let node = record(value) ?? {};
  const seen = new Set<string>();
  while (typeof node.$ref === "string" && node.$ref.startsWith("#/") && !seen.has(node.$ref)) {
    seen.add(node.$ref);
    let target: unknown = document;
    for (const segment of node.$ref.slice(2).split("/")) {
      target = record(target)?.[decodeURIComponent(segment).replaceAll("~1", "/").replaceAll("~0", "~")];
    }
    node = record(target) ?? {};
  }
  return node;
}

/** A template's identity regardless of its parameters' names: `/pets/{petId}` and `/pets/{id}` are one path. */
function pathKey(path: string): string {
  return path.replaceAll(/\{[^}]*\}/g, "{}");
}

type Operation = OperationRef & { node: Json; pathItem: Json };

function operationsOf(document: Json): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, value] of Object.entries(record(document.paths) ?? {})) {
    const pathItem = deref(document, value);
    for (const method of METHODS) {
      const node = record(pathItem[method]);
      if (!node) continue;
      const ref = { method: method.toUpperCase(), path, summary: text(node.summary) || text(node.operationId) };
      operations.set(`${ref.method} ${pathKey(path)}`, { ...ref, node, pathItem });
    }
  }
  return operations;
}

/** Path parameters are matched by position (renaming one changes nothing for a caller), the others by location and name. */
function parametersOf(document: Json, operation: Operation): Map<string, Json> {
  const byKey = new Map<string, Json>();
  const pathNames = [...operation.path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]);
  const declared = [
    ...(Array.isArray(operation.pathItem.parameters) ? operation.pathItem.parameters : []),
    ...(Array.isArray(operation.node.parameters) ? operation.node.parameters : []),
  ];
  for (const value of declared) {
    const parameter = deref(document, value);
    const name = text(parameter.name);
    const location = text(parameter.in);
    const position = location === "path" ? pathNames.indexOf(name) : -1;
    byKey.set(position >= 0 ? `path parameter #${position + 1}` : `${location} parameter ${location === "header" ? name.toLowerCase() : name}`, parameter);
  }
  return byKey;
}

type Schema = { node: Json; document: Json };

/** allOf's members are one object to a caller: their properties and required lists are merged. */
function flatten({ node, document }: Schema, depth = 0): Json {
  const schema = deref(document, node);
  if (!Array.isArray(schema.allOf) || depth > MAX_DEPTH) return schema;
  const merged: Json = { ...schema, allOf: undefined };
  for (const member of schema.allOf.map((part) => flatten({ node: record(part) ?? {}, document }, depth + 1))) {
    for (const [key, value] of Object.entries(member)) {
      if (key === "properties") merged.properties = { ...record(merged.properties), ...record(value) };
      else if (key === "required") merged.required = [...new Set([...(Array.isArray(merged.required) ? merged.required : []), ...(value as unknown[])])];
      else if (merged[key] === undefined) merged[key] = value;
    }
  }
  return merged;
}

/** The JSON types a schema admits; 3.0's `nullable` and 3.1's type arrays read alike. An untyped schema admits all. */
function typesOf(schema: Json): Set<string> | null {
  const declared = Array.isArray(schema.type) ? schema.type.map(String) : typeof schema.type === "string" ? [schema.type] : [];
  if (declared.length === 0) return null;
  const types = new Set(declared);
  if (schema.nullable === true) types.add("null");
  return types;
}

function admits(types: Set<string>, type: string): boolean {
  return types.has(type) || (type === "integer" && types.has("number"));
}

function describeTypes(types: Set<string> | null): string {
  return types ? [...types].join(" | ") : "any";
}

/** Bounds a value must keep under: lowering one (or setting one) narrows what is accepted. */
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] as const;
const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] as const;

function numeric(value: unknown): number | undefined {
  return typeof value === "number" ? value : undefined;
}

/** Where a schema sits: in what a client sends (narrowing breaks it) or in what it receives (losing a field breaks it). */
type Direction = "request" | "response";

type Walk = {
  from: Json;
  to: Json;
  direction: Direction;
  changes: Change[];
  depth: number;
  /** the `$ref` pairs on the way down, so that a circular schema is compared once */
  seen: ReadonlySet<string>;
};

function note(walk: Walk, breaking: boolean, where: string, message: string) {
  walk.changes.push({ breaking, message: where ? `${where}: ${message}` : message });
}

function compareConstraints(walk: Walk, where: string, from: Json, to: Json) {
  const request = walk.direction === "request";
  const fromTypes = typesOf(from);
  const toTypes = typesOf(to);
  if (describeTypes(fromTypes) !== describeTypes(toTypes)) {
    const narrowed = fromTypes === null ? toTypes !== null : toTypes !== null && [...fromTypes].some((type) => !admits(toTypes, type));
    const widened = toTypes === null ? fromTypes !== null : fromTypes !== null && [...toTypes].some((type) => !admits(fromTypes, type));
    // A response that can carry a type the client never saw breaks its parsing as surely as a request type taken away;
    // a response that answers fewer types (no more null) only spares the client a case.
    const breaking = request ? narrowed : widened;
    note(walk, breaking, where, `type ${narrowed && !widened ? "narrowed" : "changed"} from ${describeTypes(fromTypes)} to ${describeTypes(toTypes)}`);
  }
  const fromEnum = Array.isArray(from.enum) ? from.enum.map((value) => JSON.stringify(value)) : null;
  const toEnum = Array.isArray(to.enum) ? to.enum.map((value) => JSON.stringify(value)) : null;
  if (toEnum && !fromEnum && request) note(walk, true, where, `restricted to ${toEnum.join(", ")}`);
  if (fromEnum && toEnum) {
    const removed = fromEnum.filter((value) => !toEnum.includes(value));
    const added = toEnum.filter((value) => !fromEnum.includes(value));
    if (removed.length > 0) note(walk, request, where, `enum values removed: ${removed.join(", ")}`);
    if (added.length > 0) note(walk, false, where, `enum values added: ${added.join(", ")}`);
  }
  if (!request) return;
  for (const bound of UPPER_BOUNDS) {
    const before = numeric(from[bound]);
    const after = numeric(to[bound]);
    if (after !== undefined && (before === undefined || after < before)) note(walk, true, where, `${bound} lowered from ${before ?? "none"} to ${after}`);
    else if (before !== undefined && (after === undefined || after > before)) note(walk, false, where, `${bound} raised from ${before} to ${after ?? "none"}`);
  }
  for (const bound of LOWER_BOUNDS) {
    const before = numeric(from[bound]);
    const after = numeric(to[bound]);
    if (after !== undefined && (before === undefined || after > before)) note(walk, true, where, `${bound} raised from ${before ?? "none"} to ${after}`);
    else if (before !== undefined && (after === undefined || after < before)) note(walk, false, where, `${bound} lowered from ${before} to ${after ?? "none"}`);
  }
  for (const keyword of ["pattern", "format"] as const) {
    if (to[keyword] !== undefined && to[keyword] !== from[keyword])
      note(walk, true, where, `${keyword} ${from[keyword] === undefined ? "added" : "changed"}: ${String(to[keyword])}`);
  }
  if (from.additionalProperties !== false && to.additionalProperties === false) note(walk, true, where, "no longer accepts undeclared properties");
}

function requiredOf(schema: Json): Set<string> {
  return new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
}

function compareSchemas(walk: Walk, where: string, fromNode: unknown, toNode: unknown) {
  const refs = `${text(record(fromNode)?.$ref)} ${text(record(toNode)?.$ref)}`;
  if (walk.depth > MAX_DEPTH || walk.seen.has(refs)) return;
  const from = flatten({ node: record(fromNode) ?? {}, document: walk.from });
  const to = flatten({ node: record(toNode) ?? {}, document: walk.to });
  compareConstraints(walk, where, from, to);
  const inner: Walk = { ...walk, depth: walk.depth + 1, seen: refs === " " ? walk.seen : new Set([...walk.seen, refs]) };
  const fromProperties = record(from.properties) ?? {};
  const toProperties = record(to.properties) ?? {};
  const fromRequired = requiredOf(from);
  const toRequired = requiredOf(to);
  const field = (name: string) => (where ? `${where}.${name}` : name);
  for (const [name, schema] of Object.entries(fromProperties)) {
    if (!(name in toProperties)) {
      note(walk, walk.direction === "response", field(name), walk.direction === "response" ? "response field removed" : "property removed");
      continue;
    }
    compareSchemas(inner, field(name), schema, toProperties[name]);
    if (walk.direction === "request" && !fromRequired.has(name) && toRequired.has(name)) note(walk, true, field(name), "became required");
    if (walk.direction === "response" && fromRequired.has(name) && !toRequired.has(name)) note(walk, true, field(name), "may be absent from the response");
  }
  for (const name of Object.keys(toProperties)) {
    if (name in fromProperties) continue;
    const required = walk.direction === "request" && toRequired.has(name);
    note(walk, required, field(name), required ? "required property added" : "property added");
  }
  if (from.items !== undefined || to.items !== undefined) compareSchemas(inner, `${where}[]`, from.items, to.items);
}

function compareParameters(walk: Walk, fromParameters: Map<string, Json>, toParameters: Map<string, Json>) {
  for (const [key, from] of fromParameters) {
    const to = toParameters.get(key);
    const name = `${key.startsWith("path") ? key : `${text(from.in)} parameter`} "${text(from.name)}"`;
    if (!to) {
      note(walk, true, "", `${name} removed`);
      continue;
    }
    if (from.required !== true && to.required === true) note(walk, true, "", `${name} became required`);
    compareSchemas(walk, name, from.schema, to.schema);
  }
  for (const [key, to] of toParameters) {
    if (fromParameters.has(key)) continue;
    note(walk, to.required === true, "", `${to.required === true ? "required " : ""}${text(to.in)} parameter "${text(to.name)}" added`);
  }
}

function jsonMedia(content: Json): string | undefined {
  return Object.keys(content).find((type) => type === "application/json" || /^application\/[^;]*\+json/.test(type));
}

function compareRequestBodies(walk: Walk, fromNode: unknown, toNode: unknown) {
  const from = fromNode === undefined ? undefined : deref(walk.from, fromNode);
  const to = toNode === undefined ? undefined : deref(walk.to, toNode);
  if (!from && !to) return;
  if (!to) return note(walk, false, "", "request body removed");
  if (!from) return note(walk, to.required === true, "", `${to.required === true ? "required " : ""}request body added`);
  if (from.required !== true && to.required === true) note(walk, true, "", "request body became required");
  const fromContent = record(from.content) ?? {};
  const toContent = record(to.content) ?? {};
  for (const type of Object.keys(fromContent)) if (!(type in toContent)) note(walk, true, "", `request body no longer accepts ${type}`);
  for (const type of Object.keys(toContent)) if (!(type in fromContent)) note(walk, false, "", `request body accepts ${type}`);
  const fromJson = jsonMedia(fromContent);
  if (fromJson && fromJson in toContent) compareSchemas(walk, "request body", record(fromContent[fromJson])?.schema, record(toContent[fromJson])?.schema);
}

function compareResponses(walk: Walk, fromNode: unknown, toNode: unknown) {
  const from = record(fromNode) ?? {};
  const to = record(toNode) ?? {};
  for (const status of Object.keys(from).filter((code) => code.startsWith("2"))) {
    if (!(status in to)) {
      note(walk, true, "", `success response ${status} removed`);
      continue;
    }
    const fromContent = record(deref(walk.from, from[status]).content) ?? {};
    const toContent = record(deref(walk.to, to[status]).content) ?? {};
    const fromJson = jsonMedia(fromContent);
    if (!fromJson) continue;
    if (!(fromJson in toContent)) {
      note(walk, true, "", `response ${status} no longer answers ${fromJson}`);
      continue;
    }
    compareSchemas(walk, `response ${status}`, record(fromContent[fromJson])?.schema, record(toContent[fromJson])?.schema);
  }
  for (const status of Object.keys(to).filter((code) => code.startsWith("2") && !(code in from))) note(walk, false, "", `success response ${status} added`);
}

function compareOperations(fromDocument: Json, toDocument: Json, from: Operation, to: Operation): Change[] {
  const changes: Change[] = [];
  const request: Walk = { from: fromDocument, to: toDocument, direction: "request", changes, depth: 0, seen: new Set() };
  if (from.node.deprecated !== true && to.node.deprecated === true) note(request, false, "", "deprecated");
  compareParameters(request, parametersOf(fromDocument, from), parametersOf(toDocument, to));
  compareRequestBodies(request, from.node.requestBody, to.node.requestBody);
  compareResponses({ ...request, direction: "response" }, from.node.responses, to.node.responses);
  return changes;
}

/** The operations added, removed and changed from one document to the next, in the second document's order. */
export function diffOpenApi(fromDocument: Json, toDocument: Json): OpenApiDiff {
  const before = operationsOf(fromDocument);
  const after = operationsOf(toDocument);
  const strip = ({ method, path, summary }: Operation): OperationRef => ({ method, path, summary });
  const added = [...after].filter(([key]) => !before.has(key)).map(([, operation]) => strip(operation));
  const removed = [...before].filter(([key]) => !after.has(key)).map(([, operation]) => strip(operation));
  const changed = [...after].flatMap(([key, operation]) => {
    const previous = before.get(key);
    if (!previous) return [];
    const changes = compareOperations(fromDocument, toDocument, previous, operation);
    return changes.length === 0 ? [] : [{ ...strip(operation), breaking: changes.some((change) => change.breaking), changes }];
  });
  return { added, removed, changed, breaking: removed.length > 0 || changed.some((operation) => operation.breaking) };
}
