import { afterEach, describe, expect, it, vi } from "vitest";
import { gatewayInNextDev } from "./next-dev-route";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("Next's copy of the gateway", () => {
  it("answers 404 in production, where a gateway in Next's thread would keep rate limits and used jtis of its own", async () => {
    vi.stubEnv("NODE_ENV", "production");
    const response = await gatewayInNextDev(
      new Request("http://localhost/gw/sso-qa/notifications/v1/notifications", { headers: { "x-request-id": "dev-route-1" } }),
    );
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ status: 404, requestId: "dev-route-1", instance: "/gw/sso-qa/notifications/v1/notifications" });
  });
});
