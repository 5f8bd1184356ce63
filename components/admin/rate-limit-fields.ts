import type { FormField } from "./admin-form";

/** The two numbers of a token bucket, as both rate-limit forms ask for them. */
export function rateLimitFields(burst?: number, perSecond?: number): FormField[] {
  return [
    { name: "burst", label: "Burst (requests at once)", defaultValue: burst === undefined ? undefined : String(burst) },
    { name: "perSecond", label: "Refill (requests per second)", defaultValue: perSecond === undefined ? undefined : String(perSecond) },
  ];
}
