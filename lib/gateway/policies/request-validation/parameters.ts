/**
 * OpenAPI's parameter serialization read back (OpenAPI 3.1 §4.8.12.4): a parameter's raw
 * text in the path, query or a header, as the value its schema then validates. Values stay
 * strings; the validator coerces them to the types the schema names.
 */

export type ParameterLocation = "path" | "query" | "header";

/** What the schema says the value is, which decides how its text is split. */
export type ParameterShape = "primitive" | "array" | "object";

export type ParameterSerialization = {
  name: string;
  in: ParameterLocation;
  style: string;
  explode: boolean;
  shape: ParameterShape;
  /** an object's property names, which form-exploded objects spread over the query */
  properties: readonly string[];
};

/** Raised when a value is not written in its parameter's style, e.g. a label-style value without its dot. */
export class NotInStyle extends Error {}

/** The query's fields, names decoded and values raw, in order. */
export type QueryPairs = readonly (readonly [name: string, raw: string])[];

export function decodeText(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function decodeForm(text: string): string {
  return decodeText(text.replaceAll("+", " "));
}

export function queryPairs(search: string): QueryPairs {
  const pairs: [string, string][] = [];
  for (const field of (search.startsWith("?") ? search.slice(1) : search).split("&")) {
    if (field === "") continue;
    const equals = field.indexOf("=");
    pairs.push(equals === -1 ? [decodeForm(field), ""] : [decodeForm(field.slice(0, equals)), field.slice(equals + 1)]);
  }
  return pairs;
}

/** `a,1,b,2` as `{ a: "1", b: "2" }`. */
function fromAlternating(parts: readonly string[]): Record<string, string> {
  const object: Record<string, string> = {};
  for (let index = 0; index + 1 < parts.length; index += 2) object[parts[index]!] = parts[index + 1]!;
  return object;
}

/** `a=1,b=2` split already, as `{ a: "1", b: "2" }`. */
function fromAssignments(parts: readonly string[], decode: (text: string) => string): Record<string, string> {
  const object: Record<string, string> = {};
  for (const part of parts) {
    const equals = part.indexOf("=");
    if (equals === -1) throw new NotInStyle();
    object[decode(part.slice(0, equals))] = decode(part.slice(equals + 1));
  }
  return object;
}

/** A value split on `separator`, as its shape reads it; `assigned` objects list `key=value` parts. */
function splitValue(text: string, parameter: ParameterSerialization, separator: string, decode: (text: string) => string): unknown {
  if (parameter.shape === "primitive") return decode(text);
  const parts = text.split(separator);
  if (parameter.shape === "array") return parts.map(decode);
  return parameter.explode ? fromAssignments(parts, decode) : fromAlternating(parts.map(decode));
}

/** A path parameter's raw segment text: `simple` (the default), `label` (`.x`) or `matrix` (`;name=x`). */
export function pathValue(raw: string, parameter: ParameterSerialization): unknown {
  if (parameter.style === "label") {
    if (!raw.startsWith(".")) throw new NotInStyle();
    return splitValue(raw.slice(1), parameter, parameter.explode ? "." : ",", decodeText);
  }
  if (parameter.style === "matrix") {
    const prefix = `;${parameter.name}=`;
    if (parameter.shape === "object" && parameter.explode) {
      if (!raw.startsWith(";")) throw new NotInStyle();
      return fromAssignments(raw.slice(1).split(";"), decodeText);
    }
    if (!raw.startsWith(prefix)) throw new NotInStyle();
    if (parameter.shape === "array" && parameter.explode)
      return raw
        .slice(1)
        .split(";")
        .map((part) => decodeText(part.slice(parameter.name.length + 1)));
    return splitValue(raw.slice(prefix.length), parameter, ",", decodeText);
  }
  return splitValue(raw, parameter, ",", decodeText);
}

/** A header's value, in `simple` style, the only one headers have. */
export function headerValue(value: string, parameter: ParameterSerialization): unknown {
  return splitValue(value, parameter, ",", (text) => text.trim());
}

const DELIMITERS: Record<string, RegExp> = { spaceDelimited: /%20|\+| /i, pipeDelimited: /%7C|\|/i };

/** A query parameter's value, or undefined when the query does not carry it. */
export function queryValue(pairs: QueryPairs, parameter: ParameterSerialization): unknown {
  const { name, style, explode, shape } = parameter;
  if (style === "deepObject") {
    const prefix = `${name}[`;
    const object: Record<string, string> = {};
    let found = false;
    for (const [field, raw] of pairs) {
      if (!field.startsWith(prefix) || !field.endsWith("]")) continue;
      object[field.slice(prefix.length, -1)] = decodeForm(raw);
      found = true;
    }
    return found ? object : undefined;
  }
  if (shape === "object" && explode) {
    const object: Record<string, string> = {};
    let found = false;
    for (const [field, raw] of pairs) {
      if (!parameter.properties.includes(field)) continue;
      object[field] = decodeForm(raw);
      found = true;
    }
    return found ? object : undefined;
  }
  if (shape === "array" && explode) {
    const values = pairs.filter(([field]) => field === name).map(([, raw]) => decodeForm(raw));
    return values.length > 0 ? values : undefined;
  }
  const raw = pairs.find(([field]) => field === name)?.[1];
  if (raw === undefined) return undefined;
  const delimiter = DELIMITERS[style];
  if (delimiter && shape !== "primitive") {
    const parts = raw.split(delimiter).map(decodeForm);
    return shape === "array" ? parts : fromAlternating(parts);
  }
  return splitValue(raw, parameter, ",", decodeForm);
}
