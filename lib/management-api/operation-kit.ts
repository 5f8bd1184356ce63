import "server-only";
import type { z } from "zod";
import type { AccessTokenScope } from "../access-tokens/scopes";
import { defineOperation, jsonSchema } from "../built-in-apis/operation";
import type { Db } from "../db";
import { zodProblem } from "../http/problem";
import type { TokenCaller } from "./authenticate";

// What every management API operation is declared with: its call, its answer, and the documentation of its body and answers.

/** What one management API call gets: its caller, its path parameters, its body and query already read. */
export type ManagementCall = { db: Db; caller: TokenCaller; params: Record<string, string>; body: unknown; query: Record<string, string> };
export type ManagementAnswer = { status: number; body: unknown };

export function parse<T extends z.ZodType>(schema: T, input: unknown, location: "body" | "query" | "path"): z.infer<T> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, location);
  return parsed.data;
}

export function ok(body: unknown, status = 200): ManagementAnswer {
  return { status, body };
}

export function jsonBody(schema: z.ZodType) {
  return { required: true, content: { "application/json": { schema: jsonSchema(schema, "input") } } };
}

/** The headers of every answer that took the token's budget, documented once in the document's components. */
export const ANSWER_HEADERS = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
};

export function jsonAnswer(description: string, schema: z.ZodType) {
  return { description, headers: ANSWER_HEADERS, content: { "application/json": { schema: jsonSchema(schema, "output") } } };
}

export const CLIENT_ID = {
  name: "clientId",
  in: "path",
  required: true,
  description: "The credential's client id.",
  schema: { type: "string", maxLength: 100 },
};
export const REQUEST_ID = { name: "id", in: "path", required: true, description: "The access request's id.", schema: { type: "string", maxLength: 100 } };
export const NOT_FOUND = { code: "not-found", description: "No credential of yours has this client id.", detail: 'There is no credential "gci_…".' } as const;
export const NO_TEAM = { code: "not-found", description: "You are not a member of this team, or it does not exist.", detail: "No team team_…." } as const;
export const INVALID = {
  code: "validation-failed",
  description: "The body or a query parameter is not valid.",
  detail: "body overlapSeconds: Too big",
} as const;

export type Handle = (call: ManagementCall) => Promise<ManagementAnswer>;

export function operation<const Id extends string, const Path extends string>(
  declared: Omit<Parameters<typeof defineOperation<Id, Handle, Path, AccessTokenScope>>[0], "scope"> & { scope: AccessTokenScope },
) {
  return defineOperation<Id, Handle, Path, AccessTokenScope>(declared);
}
