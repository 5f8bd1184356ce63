import type { IncomingRequest } from "../../../http/message";
import { problem, ProblemError } from "../../../http/problem";
import { readBody } from "../../../http/read-body";
import { PASS, type Stage } from "../../pipeline";
import { bodyNotWhole, bodyTooLarge } from "../../request-body";
import type { GatewayVersion } from "../../versions";
import { type ApiPolicies, policiesFor } from "../policy-set";
import type { RequestValidationError } from "./compile";
import type { RequestValidationMetrics } from "./metrics";

/**
 * The most a body is read to be validated when the upstream sets no `maxRequestBodyBytes`:
 * validation holds the whole body in memory, where the proxy would stream it.
 */
export const VALIDATED_BODY_MAX_BYTES = 1024 * 1024;

/** What request validation decided for a proxied call. */
export type RequestValidationDecision = {
  /** the body it read, which the proxy forwards in place of the client's stream; undefined when it read none */
  body?: Uint8Array;
  /** the errors of a call forwarded under `report`, as the request log's `validationErrors` stores them */
  validationErrors?: string;
  /** the answer instead of the upstream's: `request-invalid` under `enforce`, or the body's own failure (413) */
  refusal?: ProblemError;
};

export type RequestValidationInput = {
  request: IncomingRequest;
  url: URL;
  api: { slug: string; policies: ApiPolicies };
  /** the version the call goes to */
  version: GatewayVersion | undefined;
  /** the path after `/gw/{env}/{api}` */
  remainder: string;
  /** the document's template the call matched (`proxiedRoute`) */
  route: string;
  /** the upstream's `maxRequestBodyBytes`, if it sets one */
  maxBodyBytes: number | undefined;
  metrics: RequestValidationMetrics;
};

/** The body to check, read whole: undefined when the request carries none. */
async function readValidatedBody(request: IncomingRequest, maxBytes: number): Promise<Uint8Array | undefined> {
  if (!(request.bodyChunks?.() ?? request.body)) return undefined;
  const read = await readBody(request, maxBytes);
  if (!read.ok) throw read.reason === "too-large" ? bodyTooLarge(maxBytes) : bodyNotWhole(request);
  return read.bytes;
}

function refusal(errors: readonly RequestValidationError[], operation: string): ProblemError {
  const count = errors.length === 1 ? "1 error" : `${errors.length} errors`;
  return problem("request-invalid", {
    detail: `The request does not match its operation ${operation} in the API's OpenAPI document: ${count}.`,
    extensions: { errors },
  });
}

/**
 * Checks a proxied call against its operation in the called version's document when the
 * call's effective policy is `enforce` or `report`. The body is read whole (up to the
 * upstream's limit, else `VALIDATED_BODY_MAX_BYTES`) only for an operation that declares one.
 */
export async function validateRequest(input: RequestValidationInput): Promise<RequestValidationDecision> {
  const { request, api, route } = input;
  const mode = policiesFor(api.policies, request.method, route).requestValidation?.mode;
  if (mode !== "enforce" && mode !== "report") return PASS;
  const operation = input.version?.validators?.(request.method, route);
  if (!operation) return PASS;
  let body: Uint8Array | undefined;
  if (operation.readsBody && request.method !== "GET" && request.method !== "HEAD") {
    try {
      body = await readValidatedBody(request, input.maxBodyBytes ?? VALIDATED_BODY_MAX_BYTES);
    } catch (error) {
      if (error instanceof ProblemError) return { refusal: error };
      throw error;
    }
  }
  const errors = operation.validate({ path: input.remainder, search: input.url.search, headers: request.headers, body: body ?? null });
  if (errors.length === 0) return { body };
  input.metrics.failed(api.slug, route, mode);
  return mode === "enforce" ? { refusal: refusal(errors, `${request.method} ${route}`) } : { body, validationErrors: JSON.stringify(errors) };
}

/** Request validation's stage, for proxied calls: no more than the upstream takes of a body is read to be checked. */
export function createRequestValidationStage(deps: {
  metrics: RequestValidationMetrics;
  /** the upstream's `maxRequestBodyBytes`, if it sets one */
  maxBodyBytes: (env: string, api: string) => number | undefined;
}): Stage {
  return ({ request, url, at }) => {
    // A version's validators are compiled only once a policy of its API validates requests.
    if (at.kind !== "proxied" || !at.version?.validators) return PASS;
    const { env, api, version, remainder, route } = at;
    return validateRequest({ request, url, api, version, remainder, route, maxBodyBytes: deps.maxBodyBytes(env.slug, api.slug), metrics: deps.metrics });
  };
}
