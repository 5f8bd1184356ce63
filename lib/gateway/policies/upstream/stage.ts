import type { Logger } from "pino";
import { Agent, type Dispatcher } from "undici";
import type { IncomingRequest, PlainResponse } from "../../../http/message";
import { problem, ProblemError } from "../../../http/problem";
import type { GatewayMetrics } from "../../../metrics/gateway-metrics";
import { createHealthProbe } from "../../../upstreams/health-probe";
import type { TargetState } from "../../../upstreams/target-state";
import type { UpstreamLimits } from "../../../upstreams/upstream";
import { createUpstreamSet, type UpstreamSet } from "../../../upstreams/upstream-set";
import { PASS, type Stage } from "../../pipeline";
import { bufferedBody, type RequestBody, requestBody } from "../../request-body";
import { type RequestTrace, upstreamTraceparent } from "../../request-trace";
import { clientHeaders } from "./answer-headers";
import { type UpstreamAnswer, UpstreamExchange } from "./exchange";
import { clientFault, errorCode, NOT_ANSWERED, unavailable, upstreamFailure } from "./failures";
import { type UpstreamIdentity, upstreamPath, upstreamRequestHeaders } from "./request-headers";

export type ProxyCall = UpstreamIdentity & {
  /** the environment's and the API's slugs, which name the upstream */
  env: string;
  api: string;
  /** the path after `/gw/{env}/{api}` */
  remainder: string;
  trace: RequestTrace;
  /** the client's body, when a stage before the proxy has read it whole */
  body?: Uint8Array;
};

/** Methods whose request may be sent again without changing the result (RFC 9110 §9.2.2), less TRACE, which the gateway does not serve. */
const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

export type Upstreams = {
  /**
   * Streams the request to one of the upstream's targets and its answer back, bytes
   * as they are: nothing is decoded, so Content-Encoding stays true. An idempotent
   * request that no target answered is tried on another, up to the upstream's
   * retries. No target able to take it is 503; no response headers within the
   * timeout is 504; a refused or broken connection is 502; a body that stays silent
   * for the idle timeout is cut off.
   */
  forward(call: ProxyCall): Promise<PlainResponse>;
  /** the upstreams of the registered APIs, their targets and their health */
  readonly set: UpstreamSet;
  close(): Promise<void>;
};

/**
 * One undici agent per connect timeout, each a pool of kept-alive connections per
 * origin. The other timeouts are undici's own socket timers (headers, then silence
 * between body chunks), so no request carries an AbortController (docs/decisions/014).
 */
export function createUpstreams(input: { timeoutMs: number; log: Logger; metrics: GatewayMetrics }): Upstreams {
  const { timeoutMs, log, metrics } = input;
  const agents = new Map<number, Agent>();
  const agentFor = (connectMs: number) => {
    let agent = agents.get(connectMs);
    if (!agent) agents.set(connectMs, (agent = new Agent({ headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connect: { timeout: connectMs } })));
    return agent;
  };
  const set = createUpstreamSet({ log, probe: createHealthProbe(agentFor(timeoutMs)), defaultTimeoutMs: timeoutMs });

  function send(call: ProxyCall, target: TargetState, limits: UpstreamLimits, headers: string[], body: RequestBody | null): Promise<UpstreamAnswer> {
    const { request, url } = call;
    return new Promise<UpstreamAnswer>((resolve, reject) => {
      agentFor(limits.connectMs).dispatch(
        {
          origin: target.origin,
          path: upstreamPath(target, call.remainder, url.search),
          method: request.method as Dispatcher.HttpMethod,
          headers,
          headersTimeout: limits.responseMs,
          bodyTimeout: limits.idleMs,
          // undici pipes a Node stream with backpressure, and reads any other async iterable.
          body: body?.source as Dispatcher.DispatchOptions["body"],
        },
        new UpstreamExchange(resolve, reject),
      );
    });
  }

  return {
    set,
    async forward(call) {
      const { request, url } = call;
      const upstream = set.get(call.env, call.api);
      if (!upstream) throw problem("not-found", { detail: `The API "${call.api}" has no upstream in "${call.env}".` });
      const { policy, limits } = upstream;
      const chunks =
        request.method === "GET" || request.method === "HEAD" ? null : (request.bodyChunks?.() ?? (request.body as AsyncIterable<Uint8Array> | null));
      const retries = IDEMPOTENT.has(request.method) ? policy.retries : 0;
      const body = call.body
        ? bufferedBody(call.body)
        : chunks && requestBody(chunks, { declaredLength: request.headers.get("content-length"), maxBytes: policy.maxRequestBodyBytes });
      const headers = upstreamRequestHeaders(call, body !== null);
      const { trace } = call;
      // Each attempt names its own span as parent, so its traceparent is set as it is sent.
      const traceparentAt = headers.push("traceparent", "") - 1;
      if (trace.traceState !== null) headers.push("tracestate", trace.traceState);
      const tried = new Set<TargetState>();
      let unanswered: unknown;
      for (;;) {
        const target = upstream.pick(Date.now(), tried);
        if (!target) throw unanswered === undefined ? unavailable(upstream, Date.now()) : upstreamFailure(unanswered, limits);
        tried.add(target);
        target.begin();
        const span = trace.span?.upstreamCall({
          method: request.method,
          origin: target.origin,
          path: upstreamPath(target, call.remainder, ""),
          attempt: tried.size - 1,
        });
        headers[traceparentAt] = upstreamTraceparent(trace, span);
        let answer: UpstreamAnswer;
        try {
          answer = await send(call, target, limits, headers, body);
        } catch (error) {
          span?.failed(error instanceof ProblemError ? error.code : (errorCode(error) ?? "_OTHER"));
          const fault = error instanceof ProblemError ? error : clientFault(request, body, error, limits);
          if (fault) {
            target.released();
            throw fault;
          }
          target.failed(Date.now());
          if (tried.size > retries || !NOT_ANSWERED.has(errorCode(error) ?? "") || body?.started()) throw upstreamFailure(error, limits);
          unanswered = error;
          continue;
        }
        span?.answered(answer.statusCode);
        if (answer.statusCode >= 500) target.failed(Date.now());
        else target.succeeded(Date.now());
        let passed: ReturnType<typeof clientHeaders>;
        try {
          passed = clientHeaders(answer.headers, {
            apiPath: `/gw/${call.env}/${call.api}`,
            targetOrigin: target.origin,
            basePath: target.basePath,
            upstreamUrl: target.origin + upstreamPath(target, call.remainder, url.search),
            contentSecurityPolicy: policy.contentSecurityPolicy,
          });
        } catch (error) {
          answer.body.discard();
          throw error;
        }
        if (passed.droppedCookies > 0) metrics.upstreamCookiesDropped(call.env, call.api, passed.droppedCookies);
        // A body the upstream breaks off after its headers is its failure too, though the client has its status.
        void answer.body.ended.then((end) => end === "broken" && target.failed(Date.now()));
        return { status: answer.statusCode, headers: passed.headers, body: answer.body };
      }
    },
    async close() {
      set.close();
      await Promise.all([...agents.values()].map((agent) => agent.close()));
    },
  };
}

/**
 * The upstream's stage, the last of a proxied call: one of the API's targets answers it, tried
 * again on another as the upstream's retries allow while its circuits and health let them take it.
 */
export function createUpstreamStage(upstreams: Upstreams, addressOf: (request: IncomingRequest) => string): Stage {
  return async ({ request, url, requestId, trace, at }, { caller, body }) => {
    if (at.kind !== "proxied") return PASS;
    const clientId = caller?.token.clientId ?? null;
    const call: ProxyCall = {
      request,
      url,
      env: at.env.slug,
      api: at.api.slug,
      remainder: at.remainder,
      clientId,
      clientAddress: addressOf(request),
      requestId,
      trace,
      body,
    };
    return { answer: await upstreams.forward(call) };
  };
}
