import type { UpstreamPolicy, UpstreamTarget } from "./upstream-policy";

export type CircuitState = "closed" | "open" | "half-open";

/** A change worth an operator's attention; every one is logged. */
export type TargetEvent =
  /** `learned`: another gateway process's circuit changed, and this one followed */
  | { kind: "circuit"; from: CircuitState; to: CircuitState; learned?: true }
  | { kind: "ejected"; forSeconds: number; consecutiveFailures: number }
  | { kind: "health-check"; healthy: boolean };

export type TargetHealth = {
  url: string;
  weight: number;
  /** the active health check's verdict; true when there is no check */
  healthy: boolean;
  /** taken out by passive checks until then (epoch ms), else null */
  ejectedUntil: number | null;
  circuit: CircuitState;
  /** whether a call now could be sent to it */
  available: boolean;
};

/**
 * One target of an upstream, as this process sees it: the active check's verdict,
 * the passive check's ejection, and the circuit breaker over a window of calls.
 * Times are epoch milliseconds passed in, so the transitions can be tested alone.
 */
export class TargetState {
  readonly url: string;
  readonly weight: number;
  readonly origin: string;
  /** the base URL's path without its trailing slash */
  readonly basePath: string;
  /** smooth weighted round-robin's running weight (balancer.ts) */
  currentWeight = 0;
  #healthy = true;
  #checkStreak = 0;
  #consecutiveFailures = 0;
  #ejectedUntil = 0;
  #circuit: CircuitState = "closed";
  #openUntil = 0;
  #probing = false;
  #windowStart = 0;
  #windowCalls = 0;
  #windowFailures = 0;

  constructor(
    target: UpstreamTarget,
    private readonly policy: UpstreamPolicy,
    private readonly onEvent: (target: TargetState, event: TargetEvent) => void,
  ) {
    this.url = target.url;
    this.weight = target.weight;
    const parsed = new URL(target.url);
    this.origin = parsed.origin;
    this.basePath = parsed.pathname.replace(/\/+$/, "");
  }

  /** Whether a call may be sent now. An open circuit whose time is up turns half-open here, and lets one probe through. */
  available(now: number): boolean {
    if (this.weight === 0 || !this.#healthy || now < this.#ejectedUntil) return false;
    if (this.#circuit === "open") {
      if (now < this.#openUntil) return false;
      this.#setCircuit("half-open");
    }
    return !(this.#circuit === "half-open" && this.#probing);
  }

  /** A call is on its way; when the circuit is half-open, it is the one probe. */
  begin(): void {
    if (this.#circuit === "half-open") this.#probing = true;
  }

  succeeded(now: number): void {
    this.#consecutiveFailures = 0;
    this.#count(now, false);
    if (this.#circuit === "half-open") {
      this.#probing = false;
      this.#resetWindow(now);
      this.#setCircuit("closed");
    }
  }

  /** A connection that failed, a response that did not come in time, or a 5xx answer. */
  failed(now: number): void {
    const { passive, circuitBreaker } = this.policy;
    this.#consecutiveFailures += 1;
    if (this.#consecutiveFailures >= passive.unhealthyAfter) {
      this.#ejectedUntil = now + passive.cooldownSeconds * 1000;
      this.onEvent(this, { kind: "ejected", forSeconds: passive.cooldownSeconds, consecutiveFailures: this.#consecutiveFailures });
      this.#consecutiveFailures = 0;
    }
    this.#count(now, true);
    if (this.#circuit === "half-open") {
      this.#probing = false;
      return this.#open(now);
    }
    if (
      this.#circuit === "closed" &&
      this.#windowCalls >= circuitBreaker.minimumRequests &&
      this.#windowFailures / this.#windowCalls >= circuitBreaker.failureRatio
    ) {
      this.#open(now);
    }
  }

  /** The call ended without telling anything about the target (the client went away first). */
  released(): void {
    this.#probing = false;
  }

  /**
   * Another gateway process's circuit of this target opened or closed: this one follows, so
   * that the processes of one gateway behave as one. An open circuit stays open for the
   * policy's time from now; a closed one starts a fresh window.
   */
  learned(to: "open" | "closed", now: number): void {
    if (to === this.#circuit) return;
    this.#probing = false;
    if (to === "open") this.#openUntil = now + this.policy.circuitBreaker.openSeconds * 1000;
    else this.#resetWindow(now);
    this.#setCircuit(to, true);
  }

  /** One active health check's result. */
  checked(ok: boolean): void {
    const check = this.policy.healthCheck;
    if (!check) return;
    if (ok) this.#checkStreak = this.#checkStreak > 0 ? this.#checkStreak + 1 : 1;
    else this.#checkStreak = this.#checkStreak < 0 ? this.#checkStreak - 1 : -1;
    const needed = this.#healthy ? check.unhealthyAfter : check.healthyAfter;
    if (ok !== this.#healthy && Math.abs(this.#checkStreak) >= needed) {
      this.#healthy = ok;
      this.#checkStreak = 0;
      this.onEvent(this, { kind: "health-check", healthy: ok });
    }
  }

  /** Milliseconds until this target could take calls again on its own (an ejection or an open circuit ending); null when only a health check can bring it back. */
  msUntilAvailable(now: number): number | null {
    if (this.weight === 0 || !this.#healthy) return null;
    return Math.max(0, this.#ejectedUntil - now, this.#circuit === "open" ? this.#openUntil - now : 0);
  }

  health(now: number): TargetHealth {
    return {
      url: this.url,
      weight: this.weight,
      healthy: this.#healthy,
      ejectedUntil: now < this.#ejectedUntil ? this.#ejectedUntil : null,
      circuit: this.#circuit === "open" && now >= this.#openUntil ? "half-open" : this.#circuit,
      available: this.weight > 0 && this.#healthy && now >= this.#ejectedUntil && (this.#circuit !== "open" || now >= this.#openUntil) && !this.#probing,
    };
  }

  #open(now: number): void {
    this.#openUntil = now + this.policy.circuitBreaker.openSeconds * 1000;
    this.#setCircuit("open");
  }

  #setCircuit(to: CircuitState, learned = false): void {
    if (to === this.#circuit) return;
    const from = this.#circuit;
    this.#circuit = to;
    this.onEvent(this, learned ? { kind: "circuit", from, to, learned } : { kind: "circuit", from, to });
  }

  #count(now: number, failure: boolean): void {
    if (now - this.#windowStart >= this.policy.circuitBreaker.windowSeconds * 1000) this.#resetWindow(now);
    this.#windowCalls += 1;
    if (failure) this.#windowFailures += 1;
  }

  #resetWindow(now: number): void {
    this.#windowStart = now;
    this.#windowCalls = 0;
    this.#windowFailures = 0;
  }
}
