// What a load generator sends to one server: one request over and over, or requests drawn one by one.
export type RawRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string };

export type Target = {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Draws each request; without it, every request is the one above. */
  draw?: () => RawRequest;
  /** Each drawn request may be sent only once (it carries a DPoP proof): none is drawn again. */
  once?: true;
};

/** The most requests per second one server answers on these machines: what a generator draws ahead for a `once` target. */
export const MOST_REQUESTS_PER_SECOND = 30_000;

/** One run of load against one server. */
export type Run = {
  requests: number;
  seconds: number;
  failed: number;
  /** the latency at every tenth of a percentile, from 0.1 to 100, in milliseconds */
  latencyQuantilesMs: number[];
};

export type LoadGenerator = { run(target: Target, connections: number, seconds: number): Promise<Run> };

export const QUANTILES = 1000;
