import { rmSync } from "node:fs";
import { config, sqlitePath } from "../../lib/config";
import { generateClients } from "./generate";
import { applyMigrations, createMigration, resetDatabase } from "./migrations";

const usage = "usage: db <generate | migration <name> | migrate | seed | reset>";

async function migrate(): Promise<void> {
  const applied = await applyMigrations(config().databaseUrl);
  console.log(applied.length ? `Applied ${applied.join(", ")}` : "No pending migrations");
}

async function seed(): Promise<void> {
  const { runSeed } = await import("../../prisma/seed");
  await runSeed();
}

async function main([command, ...args]: string[]): Promise<void> {
  switch (command) {
    case "generate":
      generateClients();
      return;
    case "migration": {
      const [name] = args;
      if (!name) throw new Error("usage: npm run db:migration -- <name>");
      const folder = await createMigration(name);
      console.log(folder ? `Wrote prisma/migrations/{sqlite,postgresql}/${folder}/migration.sql` : "The schema has not changed since the last migration");
      return;
    }
    case "migrate":
      return migrate();
    case "seed":
      return seed();
    case "reset": {
      const { databaseUrl, databaseProvider } = config();
      if (databaseProvider === "sqlite") rmSync(sqlitePath(databaseUrl), { force: true });
      else await resetDatabase(databaseUrl);
      await migrate();
      return seed();
    }
    default:
      throw new Error(usage);
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
