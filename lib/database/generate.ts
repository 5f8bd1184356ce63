import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../runtime/project-root";
import { DIALECTS, schemaFor } from "./schema";

/** Generates one Prisma client per dialect from the single SQLite-flavoured schema. */
export function generateClients(): void {
  const root = projectRoot();
  const workDir = join(root, "node_modules", ".cache", "gatehouse-prisma");
  mkdirSync(workDir, { recursive: true });
  for (const dialect of DIALECTS) {
    const output = join(root, "lib", "generated", "prisma", dialect);
    const schema = schemaFor(dialect).replace(/output\s*=\s*"[^"]*"/, `output = ${JSON.stringify(output)}`);
    const schemaPath = join(workDir, `${dialect}.prisma`);
    writeFileSync(schemaPath, schema);
    execFileSync(join(root, "node_modules", ".bin", "prisma"), ["generate", "--schema", schemaPath], {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        PRISMA_SCHEMA_ENGINE_BINARY: join(root, "lib", "database", "no-schema-engine.sh"),
        PRISMA_HIDE_UPDATE_MESSAGE: "1",
        CHECKPOINT_DISABLE: "1",
      },
    });
  }
}
