import { errors } from "undici";
import type { IncomingRequest } from "../../../http/message";
import { problem, ProblemError } from "../../../http/problem";
import type { UpstreamFailure } from "../../../metrics/gateway-metrics";
import type { Upstream, UpstreamLimits } from "../../../upstreams/upstream";
import { bodyNotWhole, type RequestBody } from "../../request-body";
import { InvalidStatus } from "./exchange";

/** The refusals that count as upstream failures in the metrics, by the kind they count as. */
export const UPSTREAM_FAILURES: Partial<Record<string, UpstreamFailure>> = {
  "upstream-unreachable": "error",
  "upstream-timeout": "timeout",
  "upstream-unavailable": "unavailable",
  "upstream-invalid-response": "error",
};

/** Failures that happen before the target saw the request or before it answered a byte: another target may take it. */
export const NOT_ANSWERED = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ENOTFOUND",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

export function upstreamFailure(error: unknown, limits: UpstreamLimits): ProblemError {
  if (error instanceof ProblemError) return error;
  if (error instanceof InvalidStatus) {
    return problem("upstream-invalid-response", { detail: `The upstream service answered with status ${error.statusCode}, which HTTP does not define.` });
  }
  if (error instanceof errors.UndiciError && error.code === "UND_ERR_HEADERS_TIMEOUT") {
    return problem("upstream-timeout", { detail: `The upstream service did not answer within ${limits.responseMs} ms.` });
  }
  if (error instanceof errors.UndiciError && error.code === "UND_ERR_CONNECT_TIMEOUT") {
    return problem("upstream-timeout", { detail: `The upstream service did not accept a connection within ${limits.connectMs} ms.` });
  }
  return problem("upstream-unreachable", { detail: "The upstream service could not be reached." });
}

/**
 * The refusal for a call whose client, not its target, failed it: the client closed
 * the connection mid-body (499), the parser refused the rest of the body (the 400 or
 * 408 it answered), or the response timeout ran out while the body waited for the
 * client's bytes (408). Null when the target is to answer for the failure.
 */
export function clientFault(request: IncomingRequest, body: RequestBody | null, error: unknown, limits: UpstreamLimits): ProblemError | null {
  if (!body) return null;
  if (body.clientFailed()) {
    return bodyNotWhole(request);
  }
  if (body.waitingForClient() && error instanceof errors.UndiciError && error.code === "UND_ERR_HEADERS_TIMEOUT") {
    return (
      request.bodyRefusal?.() ??
      problem("request-timeout", { detail: `The request body was still arriving after ${limits.responseMs} ms, so the gateway stopped waiting for it.` })
    );
  }
  return null;
}

export function unavailable(upstream: Upstream, now: number): ProblemError {
  const seconds = upstream.retryAfterSeconds(now);
  return problem("upstream-unavailable", {
    detail: `No target of "${upstream.api}" in "${upstream.env}" can take calls now; one may in ${seconds} s.`,
    headers: { "retry-after": String(seconds) },
  });
}
