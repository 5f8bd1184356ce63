// npm run docs:config-schema: writes docs/gatehouse-config.schema.json from the configuration
// file's zod schema, the same JSON Schema the portal serves at /schemas/gatehouse-config.json.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { configFileJsonSchema } from "../lib/config-file/config-file-schema";

writeFileSync(join(import.meta.dirname, "..", "docs", "gatehouse-config.schema.json"), `${JSON.stringify(configFileJsonSchema(), null, 2)}\n`);
