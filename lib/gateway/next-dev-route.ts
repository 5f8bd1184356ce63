import "server-only";
import { problem, problemResponse } from "../http/problem";
import { requestIdFrom } from "../http/request-id";
import { handleGatewayRequest } from "./index";

/**
 * The gateway as Next's routes mount it, for `next dev`. In production the server answers
 * the gateway's paths itself (server/http-server.ts) and sends none to Next; should one get
 * there all the same, a gateway in Next's thread would keep rate limits and used `jti`s of
 * its own, so it answers 404 instead.
 */
export async function gatewayInNextDev(request: Request): Promise<Response> {
  if (process.env.NODE_ENV !== "production") return handleGatewayRequest(request);
  const refusal = problem("not-found", { detail: "The gateway is not served through the portal." });
  return problemResponse(refusal, { instance: new URL(request.url).pathname, requestId: requestIdFrom(request.headers) });
}
