import { describe, expect, it } from "vitest";
import type { IncomingRequest } from "../../../http/message";
import { ProblemError } from "../../../http/problem";
import { handshakeToken } from "./access-token-query";

function handshake(target: string, headers: Record<string, string> = {}): IncomingRequest {
  return new Request(`https://gateway.example${target}`, { headers });
}

describe("the access_token of a WebSocket handshake", () => {
  it("reads as a bearer token and leaves the query the upstream gets, the other parameters as the client encoded them", () => {
    const { request, upstreamSearch } = handshakeToken(handshake("/gw/prod/feed/v1?topic=a%20b&access_token=abc.def-ghi&x=%2F"));
    expect(request.headers.get("authorization")).toBe("Bearer abc.def-ghi");
    expect(request.url).toBe("https://gateway.example/gw/prod/feed/v1?topic=a%20b&x=%2F");
    expect(upstreamSearch).toBe("?topic=a%20b&x=%2F");
    const names: string[] = [];
    request.headers.forEach((_value, name) => names.push(name));
    expect(names).toContain("authorization");
  });

  it("leaves no query when the token was the only parameter, and a handshake without one as it is", () => {
    expect(handshakeToken(handshake("/gw/prod/feed?access_token=t")).upstreamSearch).toBe("");
    const plain = handshake("/gw/prod/feed?topic=a", { authorization: "Bearer t" });
    expect(handshakeToken(plain)).toEqual({ request: plain, upstreamSearch: "?topic=a" });
  });

  it("finds the parameter however its name is encoded", () => {
    expect(handshakeToken(handshake("/gw/prod/feed?access%5Ftoken=t")).request.headers.get("authorization")).toBe("Bearer t");
  });

  it("refuses a token sent twice, in the header and the query or in the query twice, naming the parameter", () => {
    for (const [target, headers] of [
      ["/gw/prod/feed?access_token=t", { authorization: "Bearer t" }],
      ["/gw/prod/feed?access_token=t&access_token=u", {}],
    ] as const) {
      const refusal = (() => {
        try {
          handshakeToken(handshake(target, headers));
        } catch (error) {
          return error;
        }
      })();
      expect(refusal).toBeInstanceOf(ProblemError);
      expect(refusal).toMatchObject({ status: 400, errors: [{ in: "query", field: "access_token" }] });
    }
  });
});
