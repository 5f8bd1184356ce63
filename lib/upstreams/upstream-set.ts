import type { Logger } from "pino";
import { type TargetEvent, type TargetHealth, TargetState } from "./target-state";
import { type HealthProbe, Upstream } from "./upstream";
import type { UpstreamPolicy } from "./upstream-policy";

export type UpstreamEntry = { env: string; api: string; policy: UpstreamPolicy };

export type UpstreamHealth = { env: string; api: string; targets: TargetHealth[] };

/** A target's circuit opening or closing, as one process tells the others. */
export type CircuitChange = { env: string; api: string; target: string; to: "open" | "closed" };

export type UpstreamSet = {
  /** Makes the set match the registrations: new upstreams start their checks, changed ones start afresh, absent ones stop. */
  configure(entries: readonly UpstreamEntry[]): void;
  get(env: string, api: string): Upstream | undefined;
  /** every target's state as this process sees it, for the console and `/metrics` */
  health(now?: number): UpstreamHealth[];
  /** Calls `listener` when a circuit of this process's own opens or closes (not when it follows another's). */
  watchCircuits(listener: (change: CircuitChange) => void): void;
  /** Another process's circuit opened or closed: this process's target of that upstream follows. */
  learnCircuit(change: CircuitChange): void;
  close(): void;
};

function logLine(event: TargetEvent): { level: "info" | "warn"; message: string } {
  switch (event.kind) {
    case "circuit":
      return {
        level: event.to === "open" ? "warn" : "info",
        message: `upstream target circuit ${event.from} -> ${event.to}${event.learned ? " (another gateway process's)" : ""}`,
      };
    case "ejected":
      return { level: "warn", message: `upstream target ejected for ${event.forSeconds} s after ${event.consecutiveFailures} failures in a row` };
    case "health-check":
      return { level: event.healthy ? "info" : "warn", message: `upstream target health check: ${event.healthy ? "healthy" : "unhealthy"}` };
  }
}

/** `defaultTimeoutMs` stands in for each timeout a policy leaves unset. */
export function createUpstreamSet(input: { log: Logger; probe: HealthProbe; defaultTimeoutMs: number }): UpstreamSet {
  const { log, probe, defaultTimeoutMs } = input;
  const upstreams = new Map<string, { upstream: Upstream; fingerprint: string }>();
  const keyOf = (env: string, api: string) => `${env}\n${api}`;
  const circuitListeners: ((change: CircuitChange) => void)[] = [];

  function build(entry: UpstreamEntry): Upstream {
    const onEvent = (target: TargetState, event: TargetEvent) => {
      const { level, message } = logLine(event);
      log[level]({ env: entry.env, api: entry.api, target: target.url, ...event }, message);
      if (event.kind !== "circuit" || event.learned || event.to === "half-open") return;
      for (const listener of circuitListeners) listener({ env: entry.env, api: entry.api, target: target.url, to: event.to });
    };
    const targets = entry.policy.targets.map((target) => new TargetState(target, entry.policy, onEvent));
    const { connectMs = defaultTimeoutMs, responseMs = defaultTimeoutMs, idleMs = defaultTimeoutMs } = entry.policy.timeouts;
    return new Upstream(entry.env, entry.api, entry.policy, targets, { connectMs, responseMs, idleMs });
  }

  return {
    configure(entries) {
      const seen = new Set<string>();
      for (const entry of entries) {
        const key = keyOf(entry.env, entry.api);
        const fingerprint = JSON.stringify(entry.policy);
        seen.add(key);
        const existing = upstreams.get(key);
        if (existing?.fingerprint === fingerprint) continue;
        existing?.upstream.stop();
        const upstream = build(entry);
        upstreams.set(key, { upstream, fingerprint });
        upstream.startChecks(probe);
      }
      for (const [key, { upstream }] of upstreams) {
        if (seen.has(key)) continue;
        upstream.stop();
        upstreams.delete(key);
      }
    },
    get(env, api) {
      return upstreams.get(keyOf(env, api))?.upstream;
    },
    health(now = Date.now()) {
      return [...upstreams.values()].map(({ upstream }) => ({
        env: upstream.env,
        api: upstream.api,
        targets: upstream.targets.map((target) => target.health(now)),
      }));
    },
    watchCircuits(listener) {
      circuitListeners.push(listener);
    },
    learnCircuit(change) {
      const target = upstreams.get(keyOf(change.env, change.api))?.upstream.targets.find((candidate) => candidate.url === change.target);
      target?.learned(change.to, Date.now());
    },
    close() {
      for (const { upstream } of upstreams.values()) upstream.stop();
      upstreams.clear();
    },
  };
}
