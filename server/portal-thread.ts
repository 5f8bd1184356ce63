// Next serves the portal in this worker thread. Next patches globals (Date,
// timers, and async context tracking that runs on every promise); in a thread
// of its own, those patches cost the gateway's thread nothing.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parentPort, workerData } from "node:worker_threads";
import next from "next";
import { log } from "../lib/log";

export type PortalThreadData = { dir: string; publicPort: number };
export type PortalThreadMessage = { listening: AddressInfo };

const { dir, publicPort } = workerData as PortalThreadData;
// Next is told the public port, which it reports in X-Forwarded-Port.
const app = next({ dev: false, dir, port: publicPort });
await app.prepare();
const handle = app.getRequestHandler();

// The main thread has held the request to its limits (lib/http/request-head.ts) and adds a
// few fields; this one only must not refuse what that let through.
const server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
  handle(req, res).catch((error: unknown) => {
    log.error({ err: error, requestId: req.headers["x-request-id"] }, "portal request failed");
    if (!res.headersSent) res.writeHead(500).end();
    else res.destroy();
  });
});
// Only the main thread's keep-alive agent connects, so idle connections are never closed
// here: closing one just as the agent reuses it would fail that portal request.
server.keepAliveTimeout = 0;
server.listen(0, "127.0.0.1", () => parentPort!.postMessage({ listening: server.address() as AddressInfo } satisfies PortalThreadMessage));
