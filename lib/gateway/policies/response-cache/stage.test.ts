import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import type { IncomingRequest, PlainResponse } from "../../../http/message";
import { createMemoryResponseCacheStore } from "./memory-store";
import { createResponseCacheMetrics } from "./metrics";
import { createResponseCache, type ResponseCacheCall } from "./stage";

const api = { id: "api-1", slug: "orders", isPublic: false, policies: { policies: { responseCache: { ttlSeconds: 60, shared: false } } }, configuration: "v1" };

function request(path: string): IncomingRequest {
  return {
    method: "GET",
    url: `http://gateway.test/gw/prod/orders${path}`,
    headers: { get: () => null, forEach: () => {} },
    body: null,
    remoteAddress: "127.0.0.1",
  };
}

describe("the response cache's keys", () => {
  it("keeps every client's answers apart, and finds them again, past the bound on the scopes it keeps", async () => {
    const cache = createResponseCache({
      store: createMemoryResponseCacheStore(64 * 1024 * 1024),
      metrics: createResponseCacheMetrics(new Registry()),
      maxBodyBytes: 1024,
    });
    let forwarded = 0;
    const call = (clientId: string): Promise<PlainResponse> => {
      const sent = request("/items/1");
      return cache({
        request: sent,
        url: new URL(sent.url),
        envId: "env-1",
        envSlug: "prod",
        api,
        route: "/items/{id}",
        remainder: "/items/1",
        clientId,
        forward: async (): Promise<PlainResponse> => ({
          status: 200,
          headers: { "content-type": "text/plain" },
          body: `for ${clientId}, answer ${++forwarded}`,
        }),
      } satisfies ResponseCacheCall);
    };
    const clients = Array.from({ length: 10_050 }, (_, index) => `client-${index}`);
    for (const clientId of clients) expect((await call(clientId)).body).toBe(`for ${clientId}, answer ${forwarded}`);
    expect(forwarded).toBe(clients.length);
    for (const clientId of [clients[0]!, clients[5_000]!, clients.at(-1)!]) {
      const again = await call(clientId);
      expect(again.headers["cache-status"]).toBe("Gatehouse; hit");
      expect(new TextDecoder().decode(again.body as Uint8Array)).toMatch(new RegExp(`^for ${clientId}, `));
    }
    expect(forwarded).toBe(clients.length);
  });
});
