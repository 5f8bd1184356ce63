import "server-only";
import { recordAudit } from "../audit/write-audit";
import { db } from "../db";
import { readJsonObject } from "../http/json-body";
import { queryObject } from "../notifications/http";
import { problem, problemResponse, toProblem } from "../http/problem";
import { requestIdFrom } from "../http/request-id";
import { log } from "../log";
import { assertScope, authenticateAccessToken, type TokenCaller } from "./authenticate";
import { MANAGEMENT_OPERATIONS } from "./operations";
import { takeTokenBudget } from "./rate-limit";

/** Where the management API is mounted; operation paths are relative to it. */
export const MANAGEMENT_API_BASE = "/api/v1";

type Operation = (typeof MANAGEMENT_OPERATIONS)[number];

function matchPath(template: string, path: string): Record<string, string> | undefined {
  const expected = template.split("/");
  const actual = path.split("/");
  if (expected.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of expected.entries()) {
    const value = actual[i] ?? "";
    if (part.startsWith("{") && part.endsWith("}")) {
      if (!value) return undefined;
      // The server refuses a path that does not decode before it reaches here (server/http-server.ts).
      params[part.slice(1, -1)] = decodeURIComponent(value);
    } else if (part !== value) return undefined;
  }
  return params;
}

/** The operation for the request, or 404 for an unknown path and 405 for a known path with another method. */
function route(method: string, path: string): { operation: Operation; params: Record<string, string> } {
  const matches = MANAGEMENT_OPERATIONS.flatMap((operation) => {
    const params = matchPath(operation.path, path);
    return params ? [{ operation, params }] : [];
  });
  const match = matches.find((candidate) => candidate.operation.method === method);
  if (match) return match;
  if (matches.length === 0) throw problem("not-found", { detail: `There is no management API operation at ${MANAGEMENT_API_BASE}${path}.` });
  const allow = matches.map((candidate) => candidate.operation.method).join(", ");
  throw problem("method-not-allowed", { detail: `${path} answers ${allow}.`, headers: { allow } });
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

/**
 * One management API request: the bearer token is the only credential read
 * (never a cookie, so no cross-site defence is needed), then the token's rate
 * limit, the operation's scope, the operation; every use by a known token is audited.
 */
export async function serveManagementApi(request: Request): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  const url = new URL(request.url);
  const path = url.pathname.slice(MANAGEMENT_API_BASE.length) || "/";
  let caller: TokenCaller | undefined;
  let limitHeaders: Record<string, string> = {};
  try {
    const { operation, params } = route(request.method, path);
    caller = await authenticateAccessToken(db(), request.headers);
    limitHeaders = await takeTokenBudget(caller.tokenId);
    assertScope(caller, operation.scope);
    const body = BODY_METHODS.has(request.method) && operation.requestBody ? await readJsonObject(request) : undefined;
    const answer = await operation.handle({ db: db(), caller, params, body, query: queryObject(url) });
    await auditUse(caller, request.method, path, answer.status);
    return Response.json(answer.body, { status: answer.status, headers: { ...limitHeaders, "cache-control": "no-store", "x-request-id": requestId } });
  } catch (error) {
    const answer = toProblem(error);
    if (answer.status >= 500) log.error({ err: error, requestId }, "management API request failed");
    if (caller && answer.code !== "access-token-rate-limited") await auditUse(caller, request.method, path, answer.status).catch(() => undefined);
    const response = problemResponse(answer, { instance: url.pathname, requestId });
    for (const [name, value] of Object.entries(limitHeaders)) if (!response.headers.has(name)) response.headers.set(name, value);
    return response;
  }
}

function auditUse(caller: TokenCaller, method: string, path: string, status: number): Promise<void> {
  return recordAudit(db(), caller.actor, {
    action: "access-token.use",
    targetType: "access-token",
    targetId: caller.tokenId,
    details: { method, path, status },
  });
}
