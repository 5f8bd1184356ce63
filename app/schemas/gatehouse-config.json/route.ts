import { configFileJsonSchema } from "@/lib/config-file/config-file-schema";

export const dynamic = "force-static";

/** The configuration file's JSON Schema, for editors: `# yaml-language-server: $schema=<this URL>`. */
export function GET(): Response {
  return new Response(`${JSON.stringify(configFileJsonSchema(), null, 2)}\n`, { headers: { "content-type": "application/schema+json" } });
}
