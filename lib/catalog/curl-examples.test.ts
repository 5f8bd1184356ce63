import { describe, expect, it } from "vitest";
import { firstCallCurl, firstGetPath, tokenRequestCurl } from "./curl-examples";

describe("curl examples", () => {
  it("asks for a token with HTTP Basic and the API's scopes", () => {
    expect(tokenRequestCurl("http://localhost:3000/gw/sso-qa/oauth2/token", ["notifications:read", "notifications:write"])).toBe(
      [
        "curl -X POST 'http://localhost:3000/gw/sso-qa/oauth2/token' \\",
        '  -u "$CLIENT_ID:$CLIENT_SECRET" \\',
        "  -d grant_type=client_credentials \\",
        "  --data-urlencode 'scope=notifications:read notifications:write'",
      ].join("\n"),
    );
  });

  it("quotes URLs for the shell", () => {
    expect(firstCallCurl("http://h/gw/x/it's", "/v1")).toBe(`curl 'http://h/gw/x/it'\\''s/v1' \\\n  -H "Authorization: Bearer $ACCESS_TOKEN"`);
  });

  it("starts with a GET that needs no path parameter", () => {
    expect(firstGetPath({ paths: { "/v1/items/{id}": { get: {} }, "/v1/items": { get: {}, post: {} } } })).toBe("/v1/items");
    expect(firstGetPath({ paths: { "/v1/items": { post: {} } } })).toBeUndefined();
    expect(firstGetPath({})).toBeUndefined();
  });
});
