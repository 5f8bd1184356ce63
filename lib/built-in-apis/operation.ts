import { z } from "zod";
import type { FieldError } from "../http/problem";
import { PROBLEMS, type ProblemCode } from "../http/problem-types";
import type { BuiltInRoute } from "./route";

type JsonObject = Record<string, unknown>;

export type HttpMethod = BuiltInRoute["method"];

/** What one environment's OpenAPI document is built for. */
export type DocumentContext = {
  /** `{PUBLIC_URL}/gw/{env}` */
  gatewayUrl: string;
  envSlug: string;
};

/** A problem answer documented on the operation itself; its example's type, title and status come from the registry. */
export type ProblemDoc = { code: ProblemCode; description: string; detail: string; errors?: FieldError[] };

/** A problem answer documented once in `components/responses` under `ref` and referred to by operations. */
export type SharedProblem = { ref: string; code: ProblemCode };

/**
 * One operation, declared once: the gateway routes `method` and `path` to
 * `handle` after checking `scope`, and the OpenAPI document's path item is
 * built from the same object (parameters, body, responses, security, scope
 * and problem answers).
 */
export type Operation<Id extends string = string, Handle = unknown, Path extends string = string> = {
  /** the OpenAPI operationId */
  id: Id;
  method: HttpMethod;
  /** relative to the API's server; `{name}` segments are path parameters */
  path: Path;
  /** the scope the gateway requires; an operation without one is public */
  scope?: string;
  tags: string[];
  summary: string;
  description?: string;
  /** the `{name}` segments of `path`, documented once per path */
  pathParameters?: JsonObject[];
  /** query parameters, documented straight from the schema that validates them */
  query?: z.ZodObject;
  /** header parameters */
  headers?: JsonObject[];
  requestBody?: JsonObject;
  /** answers other than problems, keyed by status */
  responses(context: DocumentContext): Record<string, JsonObject>;
  problems?: readonly (ProblemDoc | SharedProblem)[];
  handle: Handle;
};

/** Keeps the literal id, handler, path and scope, so a table of operations knows which have a scope. */
export function defineOperation<const Id extends string, const Handle, const Path extends string, const Scope extends string | undefined = undefined>(
  operation: Operation<Id, Handle, Path> & { scope?: Scope },
): Operation<Id, Handle, Path> & { scope: Scope } {
  // An absent scope reads as undefined, which is what Scope defaults to.
  return operation as Operation<Id, Handle, Path> & { scope: Scope };
}

export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" });
  return rest;
}

function queryParameters(schema: z.ZodObject): JsonObject[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const { description, example, ...rest } = jsonSchema(field as z.ZodType, "input");
    return { name, in: "query", required: false, description, schema: rest, ...(example === undefined ? {} : { example }) };
  });
}

/** An RFC 9457 example as the gateway would answer it at `instance`. */
export function problemExample(context: DocumentContext, instance: string, code: ProblemCode, detail: string, extra: JsonObject = {}): JsonObject {
  return {
    type: `${new URL(context.gatewayUrl).origin}/problems/${code}`,
    title: PROBLEMS[code].title,
    status: PROBLEMS[code].status,
    detail,
    instance,
    requestId: "req_5f0c2a9e7b1d4c3a",
    traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
    ...extra,
  };
}

export type PathsOptions = {
  context: DocumentContext;
  /** renders a problem answer documented on an operation, with the API's headers and schema; needed once an operation has one */
  problemResponse?(problem: ProblemDoc): JsonObject;
  /** the security scheme and the problems of authentication and authorization, for operations with a scope */
  security?: { scheme: string; problems: readonly SharedProblem[] };
};

function statusOf(code: ProblemCode): string {
  return String(PROBLEMS[code].status);
}

function problemEntry(problem: ProblemDoc | SharedProblem, options: PathsOptions): [string, JsonObject] {
  if ("ref" in problem) return [statusOf(problem.code), { $ref: `#/components/responses/${problem.ref}` }];
  if (!options.problemResponse) throw new Error(`No problemResponse to document ${problem.code}.`);
  return [statusOf(problem.code), options.problemResponse(problem)];
}

function operationObject(operation: Operation, options: PathsOptions): JsonObject {
  const { scope } = operation;
  const security = scope === undefined ? undefined : options.security;
  const parameters = [...(operation.query ? queryParameters(operation.query) : []), ...(operation.headers ?? [])];
  const description = [operation.description, scope && `Scope: \`${scope}\`.`].filter(Boolean).join(" ");
  const problems = [...(security?.problems ?? []), ...(operation.problems ?? [])];
  return {
    operationId: operation.id,
    tags: operation.tags,
    summary: operation.summary,
    ...(description ? { description } : {}),
    ...(scope === undefined ? {} : { "x-required-scope": scope }),
    ...(security ? { security: [{ [security.scheme]: [] }] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.requestBody ? { requestBody: operation.requestBody } : {}),
    responses: { ...operation.responses(options.context), ...Object.fromEntries(problems.map((problem) => problemEntry(problem, options))) },
  };
}

/** The `paths` of an OpenAPI document, one path item per declared path, path parameters on the item. */
export function operationPaths(operations: readonly Operation[], options: PathsOptions): Record<string, JsonObject> {
  const paths: Record<string, JsonObject> = {};
  for (const operation of operations) {
    const item = (paths[operation.path] ??= operation.pathParameters ? { parameters: operation.pathParameters } : {});
    item[operation.method.toLowerCase()] = operationObject(operation, options);
  }
  return paths;
}
