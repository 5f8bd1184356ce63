import { z } from "zod";

/** A token bucket as admins set it: `burst` requests at once, refilled at `perSecond`. */
export const rateLimitPolicySchema = z.strictObject({
  burst: z.coerce
    .number({ message: "Enter a whole number" })
    .int("Use a whole number")
    .min(1, "At least 1")
    .max(1_000_000, "At most 1000000")
    .meta({ format: "int32" }),
  perSecond: z.coerce
    .number({ message: "Enter a whole number" })
    .int("Use a whole number")
    .min(1, "At least 1")
    .max(100_000, "At most 100000")
    .meta({ format: "int32" }),
});

export type RateLimitPolicy = z.infer<typeof rateLimitPolicySchema>;

export type EffectiveRateLimit = RateLimitPolicy & { source: "credential" | "environment" };

type PolicyColumns = { rateLimitBurst: number | null; rateLimitPerSecond: number | null };

/** A credential's override when it has one (both columns set), else its environment's policy. */
export function effectiveRateLimit(credential: PolicyColumns, environment: { rateLimitBurst: number; rateLimitPerSecond: number }): EffectiveRateLimit {
  if (credential.rateLimitBurst !== null && credential.rateLimitPerSecond !== null) {
    return { burst: credential.rateLimitBurst, perSecond: credential.rateLimitPerSecond, source: "credential" };
  }
  return { burst: environment.rateLimitBurst, perSecond: environment.rateLimitPerSecond, source: "environment" };
}

/** The credential's override, or null when it follows its environment. */
export function credentialOverride(credential: PolicyColumns): RateLimitPolicy | null {
  return credential.rateLimitBurst !== null && credential.rateLimitPerSecond !== null
    ? { burst: credential.rateLimitBurst, perSecond: credential.rateLimitPerSecond }
    : null;
}
