import "server-only";
import { problem, problemResponse } from "./http/problem";
import { requestIdFrom } from "./http/request-id";

/** 200 when the database answers `ping`'s query, 503 problem otherwise. */
export async function healthResponse(ping: () => Promise<unknown>, request: Request): Promise<Response> {
  const requestId = requestIdFrom(request.headers);
  try {
    await ping();
    return Response.json({ status: "ok" }, { headers: { "cache-control": "no-store", "x-request-id": requestId } });
  } catch {
    const refusal = problem("database-unavailable", { detail: "The database does not answer." });
    return problemResponse(refusal, { instance: new URL(request.url).pathname, requestId });
  }
}
