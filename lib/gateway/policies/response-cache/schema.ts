import { z } from "zod";

/**
 * Keeps GET and HEAD answers for at most `ttlSeconds` (0 stores nothing), bounded from
 * above by the answer's own `s-maxage` or `max-age`. A protected API's answers are kept
 * per credential unless `shared` says every caller may see the same answer.
 */
export const responseCacheSchema = z
  .object({
    ttlSeconds: z.number().int().min(0).max(604_800).meta({ format: "int32" }),
    shared: z.boolean().default(false),
  })
  .strict();

export type ResponseCachePolicy = z.infer<typeof responseCacheSchema>;
