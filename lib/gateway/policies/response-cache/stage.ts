import { hash } from "node:crypto";
import type { HeaderReader, IncomingRequest, PlainResponse } from "../../../http/message";
import { PASS, type Stage } from "../../pipeline";
import { type ApiPolicies, type PolicySet, policiesFor } from "../policy-set";
import { arrivedAge, cacheControl, storability, varyNames } from "./directives";
import { hasValidator, keepMs } from "./keep";
import type { ResponseCacheMetrics } from "./metrics";
import type { CachedAnswer, ResponseCacheStore, StoreKey, Stored } from "./store";
import { teeBody } from "./tee-body";

/** What the cache stage needs to know of a proxied call; `forward` sends a request to the upstream. */
export type ResponseCacheCall = {
  request: IncomingRequest;
  url: URL;
  envId: string;
  envSlug: string;
  api: {
    id: string;
    slug: string;
    isPublic: boolean;
    policies: ApiPolicies;
    /** changes whenever the API's upstream or version documents do */
    configuration: string;
  };
  /** the document's route template the call matched */
  route: string;
  /** the path after `/gw/{env}/{api}` */
  remainder: string;
  /** the authenticated client; null for a public API */
  clientId: string | null;
  forward(request: IncomingRequest): Promise<PlainResponse>;
};

export type ResponseCache = (call: ResponseCacheCall) => Promise<PlainResponse>;

/** RFC 9111 §4.4: a successful answer to these invalidates the cached answers of its path. */
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Request fields that ask for something other than the stored answer: they go to the upstream, whose answer may still be stored. */
const CONDITIONAL = ["range", "if-match", "if-none-match", "if-modified-since", "if-unmodified-since", "if-range"];

const CACHE_NAME = "Gatehouse";

/** Owners' entry scopes kept, over every API and route; past it they are all built again. */
const MAX_OWNER_SCOPES = 10_000;

/** What the calls of one API share, kept from one call to the next: the scope of its paths' generations, and its routes'. */
type ApiScopes = { envId: string; configuration: string; policies: ApiPolicies; path: string; routes: Map<string, RouteScopes> };

/** What the calls of one route share: its policies, its configuration's fingerprint, and each owner's entry scope. */
type RouteScopes = { policySet: PolicySet; fingerprint: string; owners: Map<string | null, string> };

/** The variant the request's values of the `Vary` fields `names` select, under the primary `key`. */
function variantOf(key: StoreKey, names: readonly string[], request: IncomingRequest): StoreKey {
  return { scope: key.scope, name: `${key.name}\n${names.map((name) => `${name}:${JSON.stringify(request.headers.get(name))}`).join("\n")}` };
}

/** Whether any of the API's policies keeps answers: only then do its writes invalidate. */
function cachesAny(policies: ApiPolicies): boolean {
  const keeps = (set: PolicySet | undefined) => (set?.responseCache?.ttlSeconds ?? 0) > 0;
  return keeps(policies.policies) || Object.values(policies.routes ?? {}).some(keeps);
}

/** The RFC 9211 member this cache adds, after any the upstream's own caches sent. */
function withCacheStatus(headers: Record<string, string | string[]>, member: string): Record<string, string | string[]> {
  return Object.assign({}, headers, { "cache-status": cacheStatus(headers, member) });
}

function cacheStatus(headers: Record<string, string | string[]>, member: string): string {
  const upstream = headers["cache-status"];
  const ours = `${CACHE_NAME}; ${member}`;
  const before = Array.isArray(upstream) ? upstream.join(", ") : upstream;
  return before ? `${before}, ${ours}` : ours;
}

/** A body already in memory, copied into an array of its own (see tee-body.ts); undefined for a streamed one. */
function bodyBytes(body: PlainResponse["body"]): Uint8Array<ArrayBuffer> | undefined {
  if (body === null) return new Uint8Array();
  if (typeof body === "string") return new TextEncoder().encode(body);
  return body instanceof Uint8Array ? body.slice() : undefined;
}

/** The request with `extra` fields added (over any of the same name), for a conditional GET. */
function withFields(request: IncomingRequest, extra: Record<string, string>): IncomingRequest {
  const headers: HeaderReader = {
    get: (name) => extra[name.toLowerCase()] ?? request.headers.get(name),
    forEach(callback) {
      request.headers.forEach((value, name) => {
        if (!(name in extra)) callback(value, name);
      });
      for (const [name, value] of Object.entries(extra)) callback(value, name);
    },
  };
  return { method: "GET", url: request.url, headers, body: null, remoteAddress: request.remoteAddress };
}

/** RFC 9111 §3.2: a 304's fields replace the stored ones, but for those that describe the body. */
function refreshedHeaders(stored: CachedAnswer["headers"], fresh: PlainResponse["headers"]): CachedAnswer["headers"] {
  const merged = { ...stored };
  for (const [name, value] of Object.entries(fresh)) {
    if (name !== "content-length" && name !== "content-encoding" && name !== "transfer-encoding") merged[name] = value;
  }
  return merged;
}

/**
 * The response cache of proxied calls (RFC 9111, a shared cache). It runs after the checks
 * (authentication, authorization, rate limits) and wraps the upstream call: a fresh stored
 * answer is returned without one; otherwise the upstream's answer goes to the client as it
 * streams, and is stored once it has arrived whole within `maxBodyBytes`. Writes invalidate.
 */
export function createResponseCache(deps: { store: ResponseCacheStore; metrics: ResponseCacheMetrics; maxBodyBytes: number }): ResponseCache {
  const { store, metrics, maxBodyBytes } = deps;
  const now = Date.now;
  let apiScopes = new WeakMap<ResponseCacheCall["api"], ApiScopes>();
  let ownerScopes = 0;

  /** The scopes of the call's API, kept with the API as the directory holds it, built again when its environment or configuration changes. */
  function scopesOf(call: ResponseCacheCall): ApiScopes {
    const { api, envId } = call;
    let found = apiScopes.get(api);
    if (!found || found.envId !== envId || found.configuration !== api.configuration || found.policies !== api.policies) {
      found = { envId, configuration: api.configuration, policies: api.policies, path: `${envId}\n${api.id}`, routes: new Map() };
      apiScopes.set(api, found);
    }
    return found;
  }

  /**
   * The route's policies, a GET's (a HEAD is answered from the GET's entry), and the fingerprint
   * of its configuration, so that changing it leaves the entries stored under the old one behind.
   */
  function routeScopesOf(scopes: ApiScopes, route: string): RouteScopes {
    let found = scopes.routes.get(route);
    if (!found) {
      const policySet = policiesFor(scopes.policies, "GET", route);
      const fingerprint = hash("sha256", `${scopes.configuration}\n${route}\n${JSON.stringify(policySet)}`, "base64url");
      scopes.routes.set(route, (found = { policySet, fingerprint, owners: new Map() }));
    }
    return found;
  }

  /** The scope of the entries of one owner (a client, or null for answers every caller shares) on the route. */
  function entryScope(scopes: ApiScopes, route: RouteScopes, owner: string | null): string {
    let found = route.owners.get(owner);
    if (found === undefined) {
      if (ownerScopes >= MAX_OWNER_SCOPES) {
        apiScopes = new WeakMap();
        ownerScopes = 0;
      }
      found = `${scopes.path}\n${route.fingerprint}\n${owner === null ? "*" : `client:${owner}`}`;
      route.owners.set(owner, found);
      ownerScopes += 1;
    }
    return found;
  }

  async function invalidateOnSuccess(call: ResponseCacheCall, path: StoreKey): Promise<PlainResponse> {
    const response = await call.forward(call.request);
    if (response.status >= 200 && response.status < 400) await store.invalidate(path);
    return response;
  }

  function served(answer: CachedAnswer, method: string, member: string, at: number): PlainResponse {
    const age = Math.floor((at - answer.storedAt) / 1000) + answer.arrivedAge;
    return {
      status: answer.status,
      headers: Object.assign({}, answer.headers, { "cache-status": cacheStatus(answer.headers, member), age: String(age) }),
      body: method === "HEAD" ? null : answer.body,
    };
  }

  return async function responseCache(call) {
    const { request, api } = call;
    const method = request.method;
    if (UNSAFE.has(method)) {
      return cachesAny(api.policies) ? invalidateOnSuccess(call, { scope: scopesOf(call).path, name: call.remainder }) : call.forward(request);
    }
    if (method !== "GET" && method !== "HEAD") return call.forward(request);
    const scopes = scopesOf(call);
    const route = routeScopesOf(scopes, call.route);
    const policy = route.policySet.responseCache;
    if (!policy || policy.ttlSeconds === 0) return call.forward(request);
    const owner = api.isPublic || policy.shared ? null : call.clientId;
    const key: StoreKey = { scope: entryScope(scopes, route, owner), name: `${call.remainder}\n${call.url.search}` };
    const asked = cacheControl(request.headers.get("cache-control"));
    const bypass = asked.has("no-cache") || asked.has("no-store") || CONDITIONAL.some((name) => request.headers.get(name) !== null);

    const read = store.read({ scope: scopes.path, name: call.remainder }, key);
    const { generation, stored } = read instanceof Promise ? await read : read;
    let found: Stored | undefined = stored?.generation === generation ? stored : undefined;
    let variantKey = key;
    const markerNames = found?.kind === "vary" ? found.names : undefined;
    if (found?.kind === "vary") {
      variantKey = variantOf(key, found.names, request);
      const variant = await store.variant(variantKey);
      found = variant?.generation === generation ? variant : undefined;
    }
    const entry = found?.kind === "answer" ? found : undefined;
    const at = now();
    if (entry && !bypass && !entry.revalidate && at < entry.expiresAt) {
      metrics.count("hit", call.envSlug, api.slug);
      return served(entry, method, "hit", at);
    }
    metrics.count("miss", call.envSlug, api.slug);
    const revalidating = entry !== undefined && !bypass && method === "GET" && hasValidator(entry);
    const forwarded = revalidating ? withFields(request, validators(entry)) : request;
    const response = await call.forward(forwarded);
    const fwd = bypass ? "fwd=request" : entry ? "fwd=stale" : "fwd=miss";
    const member = entry ? `${fwd}; fwd-status=${response.status}` : fwd;

    if (revalidating && response.status === 304) {
      const renewed = refresh(entry, response.headers, policy.ttlSeconds, now());
      if (!renewed.keep) return served(renewed.answer, method, member, renewed.answer.storedAt);
      await put(markerNames ? [[key, { kind: "vary", names: markerNames, generation }]] : [], variantKey, renewed.answer, call);
      return served(renewed.answer, method, `${member}; stored`, renewed.answer.storedAt);
    }
    if (method === "HEAD" || asked.has("no-store")) return { ...response, headers: withCacheStatus(response.headers, member) };
    const received = now();
    const verdict = storability(response.status, response.headers, policy.ttlSeconds, received);
    const refusal = !verdict.store
      ? verdict.reason
      : Number.isNaN(generation)
        ? "store-unavailable"
        : verdict.revalidate && !hasValidator(response)
          ? "no-cache"
          : Number(response.headers["content-length"] ?? 0) > maxBodyBytes
            ? "too-large"
            : undefined;
    if (!verdict.store || refusal !== undefined) return { ...response, headers: withCacheStatus(response.headers, `${member}; detail=${refusal}`) };

    const { age: _age, ...kept } = response.headers;
    const answer = (body: Uint8Array<ArrayBuffer>): CachedAnswer => ({
      kind: "answer",
      status: response.status,
      headers: kept,
      body,
      storedAt: received,
      expiresAt: received + verdict.lifetimeSeconds * 1000,
      arrivedAge: arrivedAge(response.headers),
      revalidate: verdict.revalidate,
      generation,
    });
    const names = varyNames(response.headers.vary);
    const storeKey = names.length === 0 ? key : variantOf(key, names, request);
    const markers: [StoreKey, Stored][] = names.length === 0 ? [] : [[key, { kind: "vary", names, generation }]];
    const headers = withCacheStatus(response.headers, `${member}; stored`);
    const whole = bodyBytes(response.body);
    if (whole) {
      if (whole.byteLength > maxBodyBytes) return { ...response, headers: withCacheStatus(response.headers, `${member}; detail=too-large`) };
      await put(markers, storeKey, answer(whole), call);
      return { ...response, headers };
    }
    const streamed = response.body as Exclude<PlainResponse["body"], Uint8Array | string | null>;
    return { ...response, headers, body: teeBody(streamed, maxBodyBytes, (bytes) => put(markers, storeKey, answer(bytes), call)) };
  };

  async function put(markers: [StoreKey, Stored][], key: StoreKey, answer: CachedAnswer, call: ResponseCacheCall): Promise<void> {
    const keep = keepMs(answer, now());
    if (keep <= 0) return;
    await Promise.all([...markers.map(([markerKey, marker]) => store.put(markerKey, marker, keep)), store.put(key, answer, keep)]);
    metrics.count("stored", call.envSlug, call.api.slug);
  }
}

function validators(entry: CachedAnswer): Record<string, string> {
  const fields: Record<string, string> = {};
  const etag = entry.headers.etag;
  const lastModified = entry.headers["last-modified"];
  if (typeof etag === "string") fields["if-none-match"] = etag;
  if (typeof lastModified === "string") fields["if-modified-since"] = lastModified;
  return fields;
}

/** The entry as a 304 renews it (RFC 9111 §4.3.4), and whether its new fields still let it be kept. */
function refresh(entry: CachedAnswer, fields: PlainResponse["headers"], ttlSeconds: number, at: number): { answer: CachedAnswer; keep: boolean } {
  const { age: _age, ...headers } = refreshedHeaders(entry.headers, fields);
  const verdict = storability(entry.status, headers, ttlSeconds, at);
  const lifetimeSeconds = verdict.store ? verdict.lifetimeSeconds : 0;
  const revalidate = verdict.store ? verdict.revalidate : true;
  return { answer: { ...entry, headers, storedAt: at, expiresAt: at + lifetimeSeconds * 1000, arrivedAge: 0, revalidate }, keep: verdict.store };
}

/** The response cache's stage, for proxied calls: it answers them, from its store or through the stages after it. */
export function createResponseCacheStage(cache: ResponseCache): Stage {
  return async (call, { caller }, rest) => {
    const { request, url, at } = call;
    if (at.kind !== "proxied") return PASS;
    const { env, api, route, remainder } = at;
    const clientId = caller?.token.clientId ?? null;
    const forward = (sent: IncomingRequest) => rest(sent === request ? call : { ...call, request: sent });
    return { answer: await cache({ request, url, envId: env.id, envSlug: env.slug, api, route, remainder, clientId, forward }) };
  };
}
