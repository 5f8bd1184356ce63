import { z } from "zod";

export const VERSION_STATUSES = ["beta", "current", "deprecated", "retired"] as const;
export const versionStatusSchema = z.enum(VERSION_STATUSES);
export type VersionStatus = z.infer<typeof versionStatusSchema>;

/** A version is named by its gateway path segment: `/gw/{env}/{api}/v2/...`. */
export const versionNameSchema = z
  .string()
  .max(21)
  .regex(/^v[0-9][A-Za-z0-9._-]{0,19}$/, "Name a version by its path segment: v1, v2, v2.1 (a v, a digit, at most 21 characters)");
