import type { Dispatcher } from "undici";
import type { HealthProbe } from "./upstream";

/** Active checks through `dispatcher`: a GET of the check's path on the target's origin, answered 2xx or 3xx within the check's timeout. */
export function createHealthProbe(dispatcher: Dispatcher): HealthProbe {
  return async (target, check) => {
    try {
      const { statusCode, body } = await dispatcher.request({
        origin: target.origin,
        path: check.path,
        method: "GET",
        headers: { "user-agent": "gatehouse-health-check" },
        headersTimeout: check.timeoutMs,
        bodyTimeout: check.timeoutMs,
        // Off the request path, so a signal per probe costs nothing that matters; it also bounds the connect.
        signal: AbortSignal.timeout(check.timeoutMs),
      });
      await body.dump();
      return statusCode >= 200 && statusCode < 400;
    } catch {
      return false;
    }
  };
}
