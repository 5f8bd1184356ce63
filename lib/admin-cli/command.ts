import { allowOnly, type ParsedArgs } from "./args";

export type CommandHelp = { usage: string; summary: string };

/** A result whose human form is text of its own (a file, a list of changes) rather than `key: value` lines. */
export class Report {
  constructor(
    readonly text: string,
    readonly json: Record<string, unknown>,
  ) {}
}
export type Command = ((args: ParsedArgs) => Promise<unknown>) & { help?: CommandHelp };
export type CommandGroup = Record<string, Command>;

/** The flags a usage line names (`--env <slug>`, `[--json]`), besides --json, which every command takes. */
export function optionsOf(usage: string): string[] {
  return [...usage.matchAll(/--([a-z][a-z-]*)/g)].map((match) => match[1]!).filter((name) => name !== "json");
}

/**
 * A command declared once: its usage line is the help text and the list of
 * flags it accepts, so `admin help` and the option check cannot disagree.
 */
export function command(help: CommandHelp, run: (args: ParsedArgs) => Promise<unknown>): Command {
  const options = optionsOf(help.usage);
  return Object.assign(
    async (args: ParsedArgs) => {
      allowOnly(args, options);
      return run(args);
    },
    { help },
  );
}
