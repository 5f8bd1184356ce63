import type { TargetState } from "./target-state";
import type { UpstreamPolicy } from "./upstream-policy";

/** Asks one target's health-check path; true for a 2xx or 3xx answer within the check's timeout. */
export type HealthProbe = (target: TargetState, check: NonNullable<UpstreamPolicy["healthCheck"]>) => Promise<boolean>;

/** The upstream's timeouts, each unset one the gateway's default (`UPSTREAM_TIMEOUT_MS`). */
export type UpstreamLimits = { connectMs: number; responseMs: number; idleMs: number };

/** One API's upstream in one environment: its targets, how calls are spread over them, and its active checks. */
export class Upstream {
  #timer: NodeJS.Timeout | undefined;
  readonly #probing = new Set<TargetState>();

  constructor(
    readonly env: string,
    readonly api: string,
    readonly policy: UpstreamPolicy,
    readonly targets: readonly TargetState[],
    readonly limits: UpstreamLimits,
  ) {}

  /**
   * Smooth weighted round-robin (as nginx spreads calls) over the targets that can
   * take a call now and that this call has not tried: each gains its weight, the
   * one ahead is chosen and pays back the sum, so weights 5:1:1 give a a b a c a a.
   */
  pick(now: number, tried: ReadonlySet<TargetState>): TargetState | undefined {
    let total = 0;
    let chosen: TargetState | undefined;
    for (const target of this.targets) {
      if (tried.has(target) || !target.available(now)) continue;
      target.currentWeight += target.weight;
      total += target.weight;
      if (!chosen || target.currentWeight > chosen.currentWeight) chosen = target;
    }
    if (chosen) chosen.currentWeight -= total;
    return chosen;
  }

  /** Seconds until a target may take calls again: the first ejection or open circuit to end, else the health check's time to bring one back. */
  retryAfterSeconds(now: number): number {
    const waits = this.targets.map((target) => target.msUntilAvailable(now)).filter((ms) => ms !== null);
    const check = this.policy.healthCheck;
    const ms = waits.length > 0 ? Math.min(...waits) : check ? check.intervalSeconds * check.healthyAfter * 1000 : 1000;
    return Math.max(1, Math.ceil(ms / 1000));
  }

  /** Probes every target now and then every interval; a probe still running is not started again. */
  startChecks(probe: HealthProbe): void {
    const check = this.policy.healthCheck;
    if (!check) return;
    const run = () => {
      for (const target of this.targets) {
        if (this.#probing.has(target)) continue;
        this.#probing.add(target);
        void probe(target, check).then((ok) => {
          this.#probing.delete(target);
          if (this.#timer) target.checked(ok);
        });
      }
    };
    this.#timer = setInterval(run, check.intervalSeconds * 1000).unref();
    run();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
