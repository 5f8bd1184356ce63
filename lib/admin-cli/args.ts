/** `--name value` flags (and bare `--json`) plus positional words, as the admin CLI takes them. */
export type ParsedArgs = { positionals: string[]; flags: Map<string, string>; json: boolean };

export class UsageError extends Error {}

/** A command that ran and found something wrong: its result is printed like any other, and the exit status is 1. */
export class CommandFailed extends Error {
  constructor(readonly result: unknown) {
    super("command failed");
  }
}

const BOOLEAN_FLAGS = new Set(["json", "help", "generate", "clear", "dry-run", "prune", "last", "dpop"]);

export function parseArgs(argv: string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith("--")) {
      positionals.push(word);
      continue;
    }
    const name = word.slice(2);
    if (BOOLEAN_FLAGS.has(name)) {
      flags.set(name, "true");
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined || value.startsWith("--")) throw new UsageError(`--${name} needs a value`);
    if (flags.has(name)) throw new UsageError(`--${name} given twice`);
    flags.set(name, value);
    i++;
  }
  return { positionals, flags, json: flags.has("json") };
}

/** Commands that take flags only refuse a stray word, naming it. */
export function noPositionals(args: ParsedArgs): void {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
}

export function requiredFlag(args: ParsedArgs, name: string): string {
  const value = args.flags.get(name);
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

/** Rejects flags a command does not know, so typos fail loudly. */
/** A date flag: `2027-06-30` (midnight UTC) or an ISO 8601 time. */
export function dateFlag(args: ParsedArgs, name: string): Date | undefined {
  const value = args.flags.get(name);
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--${name} must be an ISO 8601 date or time, e.g. 2027-06-30`);
  return date;
}

export function allowOnly(args: ParsedArgs, names: string[]): void {
  for (const name of args.flags.keys()) {
    if (name !== "json" && name !== "help" && !names.includes(name)) throw new UsageError(`unknown option --${name}`);
  }
}
