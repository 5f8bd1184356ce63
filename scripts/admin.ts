// npm run --silent admin -- <group> <action> [args] [--json]
// Each group lives in scripts/admin/<group>.ts and uses the same lib/ services as the portal.
import { ConfigError } from "../lib/config";
import { CommandFailed, parseArgs, type ParsedArgs, UsageError } from "./admin/args";

export type Command = (args: ParsedArgs) => Promise<unknown>;
export type CommandGroup = Record<string, Command>;

const GROUPS: Record<string, () => Promise<CommandGroup>> = {
  notification: () => import("./admin/notification").then((m) => m.commands),
  credential: () => import("./admin/credential").then((m) => m.commands),
  user: () => import("./admin/user").then((m) => m.commands),
  key: () => import("./admin/key").then((m) => m.commands),
  api: () => import("./admin/api").then((m) => m.commands),
  environment: () => import("./admin/environment").then((m) => m.commands),
};

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const [group, action] = args.positionals;
  const load = group ? GROUPS[group] : undefined;
  if (!load) throw new UsageError(`usage: admin <${Object.keys(GROUPS).join(" | ")}> <action> [options] [--json]`);
  const commands = await load();
  const command = action ? commands[action] : undefined;
  if (!command) throw new UsageError(`usage: admin ${group} <${Object.keys(commands).join(" | ")}> [options] [--json]`);
  const print = (result: unknown) => console.log(args.json ? JSON.stringify(result) : formatHuman(result));
  try {
    print(await command({ ...args, positionals: args.positionals.slice(2) }));
  } catch (error) {
    if (!(error instanceof CommandFailed)) throw error;
    print(error.result);
    process.exit(1);
  }
}

function formatHuman(result: unknown): string {
  if (result === null || typeof result !== "object") return String(result);
  return Object.entries(result)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(" ") : value !== null && typeof value === "object" ? JSON.stringify(value) : String(value)}`)
    .join("\n");
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    const known = error instanceof UsageError || error instanceof ConfigError;
    console.error(known ? error.message.split("\n").join(" ") : `error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(known ? 2 : 1);
  },
);
