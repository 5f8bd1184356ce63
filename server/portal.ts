import { Agent, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pipeline } from "node:stream";
import type { Logger } from "pino";
import { connectionOptions, isConnectionSpecific } from "../lib/http/hop-by-hop";
import { config } from "../lib/config";
import { requestClientAddress } from "../lib/http/client-address";
import { nodeHeaders, writePlainResponse } from "../lib/http/node-message";
import { problem, problemPlainResponse } from "../lib/http/problem";
import { startThread } from "../lib/runtime/threads";
import type { PortalThreadData, PortalThreadMessage } from "./portal-thread";

export type Portal = {
  /** Sends a request to Next as it came, with `requestId`, and streams Next's answer back. */
  forward(req: IncomingMessage, res: ServerResponse, requestId: string): void;
  stop(): Promise<void>;
};

/** Raw header pairs without the connection-specific ones, or `dropped`. */
function endToEnd(rawHeaders: readonly string[], connection: string | undefined, dropped: ReadonlySet<string>): string[] {
  const listed = connectionOptions(connection);
  const kept: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!isConnectionSpecific(name, listed) && !dropped.has(name)) kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return kept;
}

/** Answered by this server (100 Continue) or replaced (the request id, the client's address). */
const NOT_FORWARDED = new Set(["expect", "x-request-id", "x-forwarded-for", "forwarded"]);

/**
 * What Next saw when it read the socket itself: the same fields (Host
 * included) and a body of unknown length still chunked, with the client's
 * address, as TRUSTED_PROXIES lets us believe it, as the only X-Forwarded-For hop.
 */
function requestHeaders(req: IncomingMessage, requestId: string): string[] {
  const headers = endToEnd(req.rawHeaders, req.headers.connection, NOT_FORWARDED);
  if (req.headers["transfer-encoding"] !== undefined) headers.push("transfer-encoding", "chunked");
  headers.push("x-forwarded-for", requestClientAddress({ headers: nodeHeaders(req), remoteAddress: req.socket.remoteAddress }, config().trustedProxies));
  headers.push("x-request-id", requestId);
  return headers;
}

const pathOf = (req: IncomingMessage) => (req.url ?? "/").split("?")[0]!;

/**
 * Next answers a method that a route handler does not export with a bare 405 (no body and,
 * but for a static route, no `Allow`, which RFC 9110 §15.5.6 requires); its automatic OPTIONS
 * answer lists the methods the handler exports.
 */
function isBareMethodRefusal(answer: IncomingMessage): boolean {
  return answer.statusCode === 405 && !String(answer.headers["content-type"] ?? "").startsWith("application/problem+json");
}

/** The methods Next serves at the request's path: the refusal's own `Allow`, else its OPTIONS answer's. */
function allowedMethods(answer: IncomingMessage, req: IncomingMessage, address: AddressInfo, agent: Agent): Promise<string | undefined> {
  if (answer.headers.allow) return Promise.resolve(answer.headers.allow);
  return new Promise((resolve) => {
    const headers = { host: req.headers.host ?? `${address.address}:${address.port}` };
    const options = request({ host: address.address, port: address.port, method: "OPTIONS", path: req.url, headers, agent }, (answered) => {
      answered.resume();
      resolve(answered.headers.allow);
    });
    options.once("error", () => resolve(undefined));
    options.end();
  });
}

function forwarder(address: AddressInfo, log: Logger) {
  const agent = new Agent({ keepAlive: true });
  return (req: IncomingMessage, res: ServerResponse, requestId: string): void => {
    const toNext = request({ host: address.address, port: address.port, method: req.method, path: req.url, headers: requestHeaders(req, requestId), agent });
    toNext.once("response", (answer) => {
      if (isBareMethodRefusal(answer)) {
        answer.resume();
        void allowedMethods(answer, req, address, agent).then((allow) => {
          const refusal = problem("method-not-allowed", {
            detail: `This path does not accept ${req.method}${allow ? `; it accepts ${allow}` : ""}.`,
            ...(allow ? { headers: { allow } } : {}),
          });
          writePlainResponse(problemPlainResponse(refusal, { instance: pathOf(req), requestId }), res);
        });
        return;
      }
      const headers = endToEnd(answer.rawHeaders, answer.headers.connection, NOT_FORWARDED);
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, [...headers, "x-request-id", requestId]);
      // A broken answer is cut off for the client too, so it cannot pass for a whole one.
      pipeline(answer, res, () => undefined);
    });
    // A socket error can reach the request after its answer has begun, so every one is handled.
    toNext.on("error", (error) => {
      if (res.destroyed) return;
      if (res.headersSent) return void res.destroy();
      log.error({ err: error, requestId }, "the portal thread did not answer");
      const refusal = problem("portal-unavailable", { detail: "The portal did not answer." });
      void writePlainResponse(problemPlainResponse(refusal, { instance: pathOf(req), requestId }), res);
    });
    res.once("close", () => {
      if (!res.writableFinished) toNext.destroy();
    });
    req.pipe(toNext);
  };
}

/**
 * Starts Next in a worker thread (see `portal-thread.ts`) and resolves once
 * it listens; from then on the process ends if the thread does.
 */
export function startPortal(input: { dir: string; publicPort: number; log: Logger }): Promise<Portal> {
  const { log } = input;
  const worker = startThread("server/portal-thread.ts", {
    workerData: { dir: input.dir, publicPort: input.publicPort } satisfies PortalThreadData,
  });
  let stopping = false;
  return new Promise((resolve, reject) => {
    worker.once("message", ({ listening }: PortalThreadMessage) => {
      worker.off("error", reject);
      worker.once("error", (error) => log.fatal({ err: error }, "the portal thread failed"));
      worker.once("exit", (code) => {
        if (stopping) return;
        log.fatal({ code }, "the portal thread stopped");
        process.exit(1);
      });
      resolve({
        forward: forwarder(listening, log),
        async stop() {
          stopping = true;
          await worker.terminate();
        },
      });
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the portal thread exited with ${code} before it listened`)));
  });
}
