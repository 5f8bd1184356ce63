import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PROJECT_ROOT } from "../runtime/project-root";
import { DIALECTS, schemaFor } from "./schema";

/** Generates one Prisma client per dialect from the single SQLite-flavoured schema. */
export function generateClients(): void {
  const workDir = join(PROJECT_ROOT, "node_modules", ".cache", "gatehouse-prisma");
  mkdirSync(workDir, { recursive: true });
  for (const dialect of DIALECTS) {
    const output = join(PROJECT_ROOT, "lib", "generated", "prisma", dialect);
    const schema = schemaFor(dialect).replace(/output\s*=\s*"[^"]*"/, `output = ${JSON.stringify(output)}`);
    const schemaPath = join(workDir, `${dialect}.prisma`);
    writeFileSync(schemaPath, schema);
    execFileSync(join(PROJECT_ROOT, "node_modules", ".bin", "prisma"), ["generate", "--schema", schemaPath], {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        PRISMA_SCHEMA_ENGINE_BINARY: join(PROJECT_ROOT, "lib", "database", "no-schema-engine.sh"),
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
        CHECKPOINT_DISABLE: "1",
      },
    });
  }
}
