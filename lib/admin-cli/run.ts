// The admin CLI (`scripts/admin.ts`). Each group lives in lib/admin-cli/<group>.ts and uses
// the same lib/ services as the portal; `admin help` is built from the groups' command declarations.
import type { Writable } from "node:stream";
import { CommandScope, inCommandScope } from "../command-scope";
import { ConfigError, config } from "../config";
import { databaseLabel } from "../database-label";
import { CommandFailed, parseArgs, type ParsedArgs, UsageError } from "./args";
import { type CommandGroup, Report } from "./command";
import { formatHuman } from "./format";
import { commandHelp, fullHelp, groupHelp } from "./help";

const GROUPS: Record<string, () => Promise<CommandGroup>> = {
  user: () => import("./user").then((m) => m.commands),
  credential: () => import("./credential").then((m) => m.commands),
  team: () => import("./team").then((m) => m.commands),
  webhook: () => import("./webhook").then((m) => m.commands),
  environment: () => import("./environment").then((m) => m.commands),
  api: () => import("./api").then((m) => m.commands),
  request: () => import("./request").then((m) => m.commands),
  notification: () => import("./notification").then((m) => m.commands),
  key: () => import("./key").then((m) => m.commands),
  plan: () => import("./plan").then((m) => m.commands),
  subscription: () => import("./subscription").then((m) => m.commands),
  token: () => import("./token").then((m) => m.commands),
  config: () => import("./config").then((m) => m.commands),
};

async function allGroups(): Promise<[string, CommandGroup][]> {
  return Promise.all(Object.entries(GROUPS).map(async ([name, load]) => [name, await load()] as [string, CommandGroup]));
}

/** The help asked for (`help`, `help <group>`, `<group> --help`, `<group> <action> --help`), or undefined. */
async function helpRequested(args: ParsedArgs): Promise<string | undefined> {
  const [first, second] = args.positionals;
  const asked = first === "help" || args.flags.has("help") || (first !== undefined && second === "help");
  if (!asked) return undefined;
  const group = first === "help" ? second : first;
  if (!group) return fullHelp(await allGroups());
  const load = GROUPS[group];
  if (!load) throw new UsageError(`unknown group "${group}"; groups: ${Object.keys(GROUPS).join(", ")}`);
  const commands = await load();
  return first !== "help" && second && second !== "help" ? commandHelp(group, second, commands) : groupHelp(group, commands);
}

/** Where a command writes: its standard output and error, and the database it looked in once it knows it. */
type Output = { stdout: Writable; stderr: Writable; database?: string };

function line(stream: Writable, text: string): void {
  stream.write(`${text}\n`);
}

/** The exit code: 0 done, 1 the command failed. */
async function main(argv: string[], out: Output): Promise<number> {
  const args = parseArgs(argv);
  const help = await helpRequested(args);
  if (help) {
    line(out.stdout, help);
    return 0;
  }
  const [group, action] = args.positionals;
  if (!group) throw new UsageError(`${fullHelp(await allGroups())}`);
  const load = GROUPS[group];
  if (!load) throw new UsageError(`unknown group "${group}"; run \`npm run --silent admin -- help\``);
  const commands = await load();
  const command = action ? commands[action] : undefined;
  if (!command) throw new UsageError(`${action ? `unknown command "${group} ${action}"\n` : ""}${groupHelp(group, commands)}`);
  const database = databaseLabel(config().databaseUrl);
  out.database = database;
  const print = (result: unknown) => {
    if (result instanceof Report) return line(out.stdout, args.json ? JSON.stringify({ database, ...result.json }) : result.text);
    const described = result !== null && typeof result === "object" && !Array.isArray(result) ? { database, ...result } : { database, result };
    line(out.stdout, args.json ? JSON.stringify(described) : formatHuman(described));
  };
  try {
    print(await command({ ...args, positionals: args.positionals.slice(2) }));
    return 0;
  } catch (error) {
    if (!(error instanceof CommandFailed)) throw error;
    print(error.result);
    return 1;
  }
}

/**
 * What went wrong, in one line. Prisma's errors open with the call and an excerpt of the
 * source around it, and end with the database's reason (for example "Operation has timed
 * out" when SQLite's write lock stayed taken): an operator needs only the reason.
 */
function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const isPrisma = typeof (error as { clientVersion?: unknown }).clientVersion === "string";
  return isPrisma ? (error.message.trim().split("\n").at(-1) ?? error.message) : error.message;
}

/**
 * Why a command did not run, on stderr: one JSON object `{"error", "database"}` under `--json`
 * (read from argv, since the arguments may be what failed to parse), else a line of text.
 * Once a command ran, its failure names the database it looked in: the usual cause of "no such client".
 */
function printFailure(argv: readonly string[], error: unknown, known: boolean, { stderr, database }: Output): void {
  if (argv.includes("--json")) {
    const reason = known ? (error as Error).message : failureReason(error);
    line(stderr, JSON.stringify({ error: reason, database }));
    return;
  }
  const message = known ? (error as Error).message : `error: ${failureReason(error)}`;
  line(stderr, database ? `${message} (database: ${database})` : message);
}

/** What a command runs with: the environment it reads its configuration from, and where it writes. */
export type AdminIo = { env: Readonly<Record<string, string | undefined>>; stdout: Writable; stderr: Writable };

/**
 * Runs one admin command and returns its exit code: 0 done, 1 failed, 2 a usage or
 * configuration error. The command reads its configuration from `io.env` alone and opens a
 * database client of its own, closed before it returns (`lib/command-scope.ts`), so commands
 * run in one process share neither; `scripts/admin.ts` runs one per process, on the process's
 * environment. On SQLite, commands in one thread run one at a time: better-sqlite3 waits for
 * the write lock without giving up the thread, so a command waiting for another's lock would
 * keep the other from releasing it.
 */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  const out: Output = { stdout: io.stdout, stderr: io.stderr };
  return inCommandScope(new CommandScope(io.env), async () => {
    let code: number;
    try {
      code = await main(argv, out);
    } catch (error) {
      const known = error instanceof UsageError || error instanceof ConfigError;
      printFailure(argv, error, known, out);
      code = known ? 2 : 1;
    }
    if (out.database) await (await import("../db")).disconnectDb();
    return code;
  });
}
