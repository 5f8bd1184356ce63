import { rmSync } from "node:fs";
import { createInterface } from "node:readline/promises";
import { config } from "../lib/config";
import { sqlitePath } from "../lib/database-url";
import { databaseLabel } from "../lib/database-label";
import { generateClients } from "../lib/database/generate";
import { applyMigrations, createMigration, resetDatabase } from "../lib/database/migrations";

const usage = "usage: db <generate | migration <name> | migrate | seed | reset>";

/** `reset` wipes everything: on a terminal it asks, elsewhere it needs `--yes`. */
async function confirmReset(args: string[]): Promise<void> {
  const target = databaseLabel(config().databaseUrl);
  if (args.includes("--yes")) return;
  if (!process.stdin.isTTY) throw new Error(`db:reset deletes all data in ${target}; run \`npm run db:reset -- --yes\` to confirm`);
  const prompt = createInterface({ input: process.stdin, output: process.stdout });
  const answer = await prompt.question(`This deletes all data in ${target}, then migrates and seeds it again. Type "yes" to go on: `);
  prompt.close();
  if (answer.trim().toLowerCase() !== "yes") throw new Error("db:reset cancelled; nothing was changed");
}

async function migrate(): Promise<void> {
  console.log(`database: ${databaseLabel(config().databaseUrl)}`);
  const applied = await applyMigrations(config().databaseUrl);
  console.log(applied.length ? `Applied ${applied.join(", ")}` : "No pending migrations");
}

async function seed(): Promise<void> {
  console.log(`database: ${databaseLabel(config().databaseUrl)}`);
  const { runSeed } = await import("../prisma/seed");
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
      await confirmReset(args);
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
