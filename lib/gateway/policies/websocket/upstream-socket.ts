import type { IncomingMessage } from "node:http";
import WebSocket from "ws";
import { type ProblemError, problem } from "../../../http/problem";
import type { TargetState } from "../../../upstreams/target-state";
import type { Upstream } from "../../../upstreams/upstream";
import { NOT_ANSWERED, unavailable } from "../upstream/failures";
import { upstreamPath } from "../upstream/request-headers";

/** What the upstream's own refusal of the handshake may carry back to the client, at most. */
const MAX_REFUSAL_BYTES = 64 * 1024;

/** The upstream answered the handshake with a status other than 101: the client gets that answer. */
export type UpstreamRefusal = { status: number; contentType: string | undefined; body: string };

export type UpstreamHandshake = { opened: WebSocket; refused?: undefined } | { opened?: undefined; refused: UpstreamRefusal };

export type UpstreamHandshakeInput = {
  upstream: Upstream;
  remainder: string;
  /** the query the client sent, less `access_token` */
  search: string;
  /** the fields the upstream is sent, besides the handshake's own */
  headers: Record<string, string>;
  protocols: string[];
  maxPayload: number;
};

/** ws:// for an http:// target, wss:// for https://. */
function socketUrl(target: TargetState, remainder: string, search: string): string {
  return `${target.origin.replace(/^http/, "ws")}${upstreamPath(target, remainder, search)}`;
}

function readRefusal(response: IncomingMessage): Promise<UpstreamRefusal> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () =>
      resolve({ status: response.statusCode ?? 502, contentType: response.headers["content-type"], body: Buffer.concat(chunks).toString("utf8") });
    response.on("data", (chunk: Buffer) => {
      if (size >= MAX_REFUSAL_BYTES) return;
      chunks.push(chunk.subarray(0, MAX_REFUSAL_BYTES - size));
      size += chunk.length;
    });
    response.on("end", done);
    response.on("error", done);
    response.on("close", done);
  });
}

type Attempt = { opened: WebSocket } | { refused: UpstreamRefusal } | { failed: unknown; timedOut: boolean };

/** One handshake with one target, within the upstream's connect and response timeouts together. */
function attempt(target: TargetState, input: UpstreamHandshakeInput): Promise<Attempt> {
  const { upstream } = input;
  return new Promise((resolve) => {
    let timedOut = false;
    const socket = new WebSocket(socketUrl(target, input.remainder, input.search), input.protocols, {
      headers: input.headers,
      perMessageDeflate: false,
      maxPayload: input.maxPayload,
      followRedirects: false,
    });
    const timer = setTimeout(() => {
      timedOut = true;
      socket.terminate();
    }, upstream.limits.connectMs + upstream.limits.responseMs);
    socket.once("open", () => {
      clearTimeout(timer);
      // Held until the tunnel listens, so that no message arrives before it does.
      socket.pause();
      resolve({ opened: socket });
    });
    socket.once("unexpected-response", (request, response) => {
      clearTimeout(timer);
      void readRefusal(response).then((refused) => {
        request.destroy();
        resolve({ refused });
      });
    });
    // Once open, the tunnel handles errors; this listener only settles an attempt still under way.
    socket.on("error", (error) => {
      clearTimeout(timer);
      resolve({ failed: error, timedOut });
    });
  });
}

function failure(upstream: Upstream, error: unknown, timedOut: boolean): ProblemError {
  if (timedOut) {
    return problem("upstream-timeout", {
      detail: `The upstream service did not complete the WebSocket handshake within ${upstream.limits.connectMs + upstream.limits.responseMs} ms.`,
    });
  }
  if (NOT_ANSWERED.has((error as { code?: string }).code ?? ""))
    return problem("upstream-unreachable", { detail: "The upstream service could not be reached." });
  return problem("upstream-invalid-response", { detail: "The upstream service did not complete the WebSocket handshake as RFC 6455 requires." });
}

/**
 * Opens the WebSocket to one of the upstream's targets, picked as a proxied call's is
 * (weights, health, ejection, circuit); a target that refused the connection is left for
 * another, up to the upstream's retries. The handshake counts for the target's health as a
 * call does: a connection failure or a 5xx answer against it, a 101 or other answer for it.
 * Throws the problem the client is to get: 503 with no target to take it, 502 or 504.
 */
export async function openUpstreamSocket(input: UpstreamHandshakeInput): Promise<UpstreamHandshake> {
  const { upstream } = input;
  const tried = new Set<TargetState>();
  let unanswered: ProblemError | undefined;
  for (;;) {
    const target = upstream.pick(Date.now(), tried);
    if (!target) throw unanswered ?? unavailable(upstream, Date.now());
    tried.add(target);
    target.begin();
    const result = await attempt(target, input);
    if ("opened" in result) {
      target.succeeded(Date.now());
      return { opened: result.opened };
    }
    if ("refused" in result) {
      if (result.refused.status >= 500) target.failed(Date.now());
      else target.succeeded(Date.now());
      return { refused: result.refused };
    }
    target.failed(Date.now());
    const retry = !result.timedOut && NOT_ANSWERED.has((result.failed as { code?: string }).code ?? "") && tried.size <= upstream.policy.retries;
    unanswered = failure(upstream, result.failed, result.timedOut);
    if (!retry) throw unanswered;
  }
}
