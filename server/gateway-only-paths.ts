import type { IncomingMessage, ServerResponse } from "node:http";
import { dataPlane } from "../lib/data-plane/process";
import { healthResponse } from "../lib/health";
import { nodeHeaders, writePlainResponse } from "../lib/http/node-message";
import { problem, problemPlainResponse } from "../lib/http/problem";
import { requestIdFrom } from "../lib/http/request-id";

/** What a gateway-only process answers outside the gateway: `/api/health`, and a 404 problem for anything else. */
export function serveGatewayOnlyPaths(publicOrigin: string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", publicOrigin);
    const requestId = requestIdFrom(nodeHeaders(req));
    if (url.pathname === "/api/health" && (req.method === "GET" || req.method === "HEAD")) {
      void healthResponse(dataPlane().store.ping, new Request(url, { headers: { "x-request-id": requestId } })).then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(req.method === "HEAD" ? undefined : Buffer.from(await response.arrayBuffer()));
      });
      return;
    }
    const refusal = problem("not-found", {
      detail: "This is a gateway-only process: it serves /gw/…, the OAuth metadata and /api/health; the portal runs elsewhere.",
    });
    void writePlainResponse(problemPlainResponse(refusal, { instance: url.pathname, requestId }), res);
  };
}
