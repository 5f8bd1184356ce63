import type { IncomingMessage, ServerResponse } from "node:http";
import { dataPlane } from "../lib/data-plane/process";
import { healthResponse } from "../lib/health";
import { nodeHeaders, writePlainResponse } from "../lib/http/node-message";
import { problem, problemPlainResponse } from "../lib/http/problem";
import { requestIdFrom } from "../lib/http/request-id";
import { processDependencies, readinessResponse } from "../lib/readiness";

/** The probes, answered as the full server's routes answer them, on the data plane's connection. */
const PROBES: Record<string, (request: Request) => Promise<Response>> = {
  "/api/health": (request) => healthResponse(dataPlane().store.ping, request),
  "/api/ready": (request) => readinessResponse(processDependencies(dataPlane().store.ping), request),
};

/** What a gateway-only process answers outside the gateway: `/api/health`, `/api/ready`, and a 404 problem for anything else. */
export function serveGatewayOnlyPaths(publicOrigin: string) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", publicOrigin);
    const requestId = requestIdFrom(nodeHeaders(req));
    const probe = PROBES[url.pathname];
    if (probe && (req.method === "GET" || req.method === "HEAD")) {
      void probe(new Request(url, { headers: { "x-request-id": requestId } })).then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(req.method === "HEAD" ? undefined : Buffer.from(await response.arrayBuffer()));
      });
      return;
    }
    const refusal = problem("not-found", {
      detail: "This is a gateway-only process: it serves /gw/…, the OAuth metadata, /api/health and /api/ready; the portal runs elsewhere.",
    });
    void writePlainResponse(problemPlainResponse(refusal, { instance: url.pathname, requestId }), res);
  };
}
