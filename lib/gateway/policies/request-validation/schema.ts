import { z } from "zod";

/**
 * Checks each call against its operation in the called version's OpenAPI document:
 * `enforce` refuses a call that fails with 400 `request-invalid`, `report` forwards it
 * and records why it failed, `off` checks nothing.
 */
export const requestValidationSchema = z
  .object({
    mode: z.enum(["enforce", "report", "off"]).default("off"),
  })
  .strict();

export type RequestValidationPolicy = z.infer<typeof requestValidationSchema>;
