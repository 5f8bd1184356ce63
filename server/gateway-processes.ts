import type { Config } from "../lib/config";
import { StartupError } from "./start-up";

/**
 * How many gateway processes `npm run start:gateway` runs: GATEWAY_PROCESSES, `auto` being
 * the machine's available parallelism, and `auto` by default when Redis shares what the
 * processes must share. Without Redis each process would keep its own limits, so more than
 * one is refused rather than run with every limit multiplied.
 */
export function gatewayProcessCount(settings: Pick<Config, "gatewayProcesses" | "redisUrl">, availableParallelism: number): number {
  const setting = settings.gatewayProcesses ?? (settings.redisUrl ? "auto" : 1);
  const count = setting === "auto" ? availableParallelism : setting;
  if (count > 1 && !settings.redisUrl) {
    const asked = setting === "auto" ? `GATEWAY_PROCESSES=auto (${count} on this machine)` : `GATEWAY_PROCESSES=${count}`;
    throw new StartupError(
      `${asked} needs REDIS_URL: without Redis each process would keep its own rate limits, used token ids, response cache and WebSocket counts. Set REDIS_URL, or set GATEWAY_PROCESSES=1.`,
    );
  }
  return count;
}
