import type { CommandGroup } from "./command";

export const USAGE = "usage: npm run --silent admin -- <group> <action> [options] [--json]";

/** The help of one group, from its commands' own declarations; a command declared without help shows its name. */
export function groupHelp(name: string, commands: CommandGroup): string {
  const lines = Object.entries(commands).flatMap(([action, command]) =>
    command.help ? [`  ${command.help.usage} [--json]`, `      ${command.help.summary}`] : [`  ${name} ${action}`],
  );
  return [name, ...lines].join("\n");
}

export function commandHelp(group: string, action: string, commands: CommandGroup): string {
  const help = commands[action]?.help;
  return help ? `usage: ${help.usage} [--json]\n${help.summary}` : groupHelp(group, commands);
}

export function fullHelp(groups: [string, CommandGroup][]): string {
  return [
    USAGE,
    "Commands act on DATABASE_URL (from the environment, then .env). With --json every command prints",
    "one JSON object whose `database` names it; in text, every command but `config` prints it first.",
    "",
    ...groups.map(([name, commands]) => `${groupHelp(name, commands)}\n`),
  ].join("\n");
}
