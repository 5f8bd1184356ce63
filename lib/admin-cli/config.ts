import { writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { type ParsedArgs, UsageError } from "./args";
import { type CommandGroup, command, Report } from "./command";
import { CommandFailed } from "./args";
import type { ConfigError } from "../config-file/read-config-file";

/** `-f FILE`, as decK and kubectl take it, or `--file FILE`. */
function fileOf(args: ParsedArgs, required: boolean): string | undefined {
  const [first, second, ...rest] = args.positionals;
  const flagged = args.flags.get("file");
  if (first === "-f" && second && rest.length === 0 && !flagged) return second;
  if (first === undefined && flagged) return flagged;
  if (first === undefined && !required) return undefined;
  throw new UsageError(`name the file with -f FILE${first !== undefined && first !== "-f" ? ` (unexpected argument ${first})` : ""}`);
}

/** Reads and checks the file, then plans its changes against the database; any error fails the command with every error listed. */
async function planFor(args: ParsedArgs) {
  const file = fileOf(args, true)!;
  const [{ db }, { readConfigFile }, { desiredState }, { planDesired }] = await Promise.all([
    import("../db"),
    import("../config-file/read-config-file"),
    import("../config-file/gateway-state"),
    import("../config-file/apply-desired"),
  ]);
  const fail = (errors: ConfigError[]): never => {
    errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    const at = (error: ConfigError) => `${error.line === null ? "" : `:${error.line}`}${error.column === undefined ? "" : `:${error.column}`}`;
    const lines = errors.map((error) => `${file}${at(error)}: ${error.path ? `${error.path}: ` : ""}${error.message}`);
    throw new CommandFailed(new Report(`${file} has ${errors.length} error(s); nothing was changed:\n${lines.join("\n")}`, { file, errors }));
  };
  const read = await readConfigFile(file, { root: args.flags.get("root") });
  // A file with errors is still planned, as far as it passed, so that one run lists them all.
  const [checked, errors] = read.ok ? [read, []] : [read.partial, read.errors];
  if (!checked) return fail(errors);
  const desired = desiredState(checked.file, checked.documents, checked.guides);
  const { changes, problems } = await planDesired(db(), desired, args.flags.has("prune"), checked.namedEnvironments);
  errors.push(...problems.map((problem) => checked.errorAt(problem.path, problem.message)));
  if (errors.length > 0) fail(errors);
  return { file, desired, changes, files: checked.files, db: db() };
}

async function changesReport(file: string, changes: Awaited<ReturnType<typeof planFor>>["changes"], verb: string, extra: Record<string, unknown>) {
  const { describeChange } = await import("../config-file/plan");
  const text = changes.length === 0 ? "no changes" : `${verb}:\n${changes.map((change) => `  ${describeChange(change)}`).join("\n")}`;
  return new Report(text, { file, changes, ...extra });
}

const exportConfig = command(
  { usage: "config export [--file <path>]", summary: "Prints the environments and proxied APIs as a configuration file (YAML), or writes it with -f FILE." },
  async (args) => {
    const file = fileOf(args, false);
    const [{ config }, { db }, { currentState }, { exportConfig: toYaml }] = await Promise.all([
      import("../config"),
      import("../db"),
      import("../config-file/gateway-state"),
      import("../config-file/export-config"),
    ]);
    const text = toYaml(await currentState(db()), `${config().publicUrl}/schemas/gatehouse-config.json`);
    if (!file) return new Report(text.trimEnd(), { config: text });
    await writeFile(file, text);
    return new Report(`wrote ${file}`, { file });
  },
);

const diff = command(
  {
    usage: "config diff --file <path> [--root <dir>] [--prune]",
    summary: "Lists what `config apply` would change, without changing it, and each file the configuration names with the SHA-256 of its content.",
  },
  async (args) => {
    const { file, changes, files } = await planFor(args);
    const report = await changesReport(file, changes, "would change", { files });
    const listed = files.map((read) => `  ${read.path} sha256:${read.sha256}`);
    return files.length === 0 ? report : new Report(`${report.text}\nfiles read:\n${listed.join("\n")}`, report.json);
  },
);

const apply = command(
  {
    usage: "config apply --file <path> [--root <dir>] [--dry-run] [--prune]",
    summary:
      "Makes environments, proxied APIs and credentials' trust in external issuers match the file, in one audited transaction; --prune also deletes environments and APIs the file leaves out. Files the configuration names must lie in its folder, or under --root.",
  },
  async (args) => {
    const { file, desired, changes, db } = await planFor(args);
    const dryRun = args.flags.has("dry-run");
    if (!dryRun && changes.length > 0) {
      const [{ applyChanges }, { CLI_ACTOR }] = await Promise.all([import("../config-file/apply-changes"), import("../audit/write-audit")]);
      await applyChanges({ db, actor: CLI_ACTOR, desired, changes, source: basename(file) });
    }
    return changesReport(file, changes, dryRun ? "would change (dry run)" : "changed", { applied: !dryRun && changes.length > 0 });
  },
);

export const commands: CommandGroup = { export: exportConfig, diff, apply };
