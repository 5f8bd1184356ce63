import { z } from "zod";

// The format lets OpenAPI readers size the field (OWASP API4): int32 unless the bound needs more.
const int = (min: number, max: number) =>
  z
    .number()
    .int()
    .min(min)
    .max(max)
    .meta({ format: max > 2_147_483_647 ? "int64" : "int32" });

export const upstreamTargetSchema = z
  .object({
    url: z
      .string()
      .trim()
      .max(2000)
      .regex(/^https?:\/\/[^\s]+$/, "Enter an http(s) URL"),
    /** a share of the traffic among the healthy targets; 0 drains the target */
    weight: int(0, 1000).default(1),
  })
  .strict();

/** Probes each target's `path` every interval; a target is down after `unhealthyAfter` failures in a row and up after `healthyAfter` successes. */
export const healthCheckSchema = z
  .object({
    path: z.string().startsWith("/", "Start the path with /").max(500),
    intervalSeconds: int(1, 3600).default(10),
    timeoutMs: int(50, 60_000).default(2_000),
    unhealthyAfter: int(1, 100).default(3),
    healthyAfter: int(1, 100).default(2),
  })
  .strict();

/** Consecutive connection failures or 5xx answers take a target out for `cooldownSeconds`. */
export const passiveCheckSchema = z
  .object({
    unhealthyAfter: int(1, 100).default(3),
    cooldownSeconds: int(1, 3600).default(10),
  })
  .strict();

/**
 * Opens when at least `minimumRequests` calls in the last `windowSeconds` failed at
 * `failureRatio` or more; after `openSeconds` one probe decides whether it closes.
 */
export const circuitBreakerSchema = z
  .object({
    failureRatio: z.number().min(0.01).max(1).default(0.5),
    windowSeconds: int(1, 3600).default(10),
    minimumRequests: int(1, 100_000).default(10),
    openSeconds: int(1, 3600).default(15),
  })
  .strict();

/** Unset timeouts take `UPSTREAM_TIMEOUT_MS`. */
export const upstreamTimeoutsSchema = z
  .object({
    /** to open a connection to a target */
    connectMs: int(1, 600_000).optional(),
    /** from the request's end to the answer's headers */
    responseMs: int(1, 600_000).optional(),
    /** between two chunks of the answer's body */
    idleMs: int(1, 600_000).optional(),
  })
  .strict();

export const upstreamPolicySchema = z
  .object({
    targets: z
      .array(upstreamTargetSchema)
      .min(1, "List at least one target")
      .max(32, "List at most 32 targets")
      .refine((targets) => new Set(targets.map((target) => target.url)).size === targets.length, "List each target URL once"),
    healthCheck: healthCheckSchema.optional(),
    passive: passiveCheckSchema.default({ unhealthyAfter: 3, cooldownSeconds: 10 }),
    /** further targets an idempotent request tries when its target cannot be reached */
    retries: int(0, 5).default(1),
    circuitBreaker: circuitBreakerSchema.default({ failureRatio: 0.5, windowSeconds: 10, minimumRequests: 10, openSeconds: 15 }),
    timeouts: upstreamTimeoutsSchema.default({}),
    /** larger request bodies answer 413; unset, any size streams through */
    maxRequestBodyBytes: int(1, Number.MAX_SAFE_INTEGER).optional(),
    /**
     * The Content-Security-Policy of every proxied answer: unset, `sandbox; default-src 'none'`;
     * a policy of the API's own instead; false for none, which lets the upstream's HTML run
     * script on the portal's origin (docs/decisions/045).
     */
    contentSecurityPolicy: z
      .union([
        z.literal(false),
        z
          .string()
          .trim()
          .min(1)
          .max(4000)
          .regex(/^[\x20-\x7e]+$/, "Write the policy in printable ASCII, on one line"),
      ])
      .optional(),
  })
  .strict();

/** What an operator writes: defaults left out. */
export type UpstreamPolicyInput = z.input<typeof upstreamPolicySchema>;
/** What the gateway works with: every default filled in. */
export type UpstreamPolicy = z.output<typeof upstreamPolicySchema>;
export type UpstreamTarget = UpstreamPolicy["targets"][number];

/** The policy of one target URL with every default: what a single upstream URL stands for. */
export function singleTarget(url: string): UpstreamPolicyInput {
  return { targets: [{ url, weight: 1 }] };
}
