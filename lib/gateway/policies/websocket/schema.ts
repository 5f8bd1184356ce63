import { z } from "zod";

/** Lets an Upgrade to a WebSocket through to the upstream, within these limits. */
export const websocketSchema = z
  .object({
    /** a connection with no message either way for this long is closed */
    idleTimeoutSeconds: z.number().int().min(1).max(86_400).default(300).meta({ format: "int32" }),
    /** a larger message closes the connection with 1009 */
    maxMessageBytes: z.number().int().min(1).max(67_108_864).default(1_048_576).meta({ format: "int32" }),
    /** open connections one client may hold in the environment; one more is refused 429 */
    maxConnectionsPerClient: z.number().int().min(1).max(10_000).default(20).meta({ format: "int32" }),
  })
  .strict();

export type WebsocketPolicy = z.infer<typeof websocketSchema>;
