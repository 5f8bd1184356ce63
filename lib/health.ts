import "server-only";
import type { Db } from "./db";
import { problem, problemResponse } from "./http/problem";
import { requestIdFrom } from "./http/request-id";

/** 200 when the database answers a query, 503 problem otherwise. */
export async function healthResponse(db: Db, request: Request): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  try {
    await db.$queryRawUnsafe("SELECT 1");
    return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store", "x-request-id": requestId } });
  } catch {
    const refusal = problem("database-unavailable", { detail: "The database does not answer." });
    return problemResponse(refusal, { instance: new URL(request.url).pathname, requestId });
  }
}
