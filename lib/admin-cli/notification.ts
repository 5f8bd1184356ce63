import { noPositionals, type ParsedArgs, requiredFlag, UsageError } from "./args";
import { type CommandGroup, command } from "./command";

const MAX_COUNT = 1000;

function parseCount(args: ParsedArgs): number {
  const value = args.flags.get("count") ?? "1";
  const count = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT) throw new UsageError(`--count must be an integer from 1 to ${MAX_COUNT}`);
  return count;
}

const CREATE_HELP = {
  usage:
    "notification create --env <slug> --client <clientId> [--title <text>] [--body <text>] [--category <category>] [--severity <severity>] [--link <url>] [--count <n>]",
  summary: `Sends notifications to one client; --count repeats it (at most ${MAX_COUNT}).`,
};

async function create(args: ParsedArgs): Promise<{ ids: string[] }> {
  noPositionals(args);
  const envSlug = requiredFlag(args, "env");
  const clientId = requiredFlag(args, "client");
  const count = parseCount(args);
  const [{ db }, { ProblemError }, { createNotifications }] = await Promise.all([
    import("../db"),
    import("../http/problem"),
    import("../notifications/create-notifications"),
  ]);
  const environment = await db().environment.findUnique({ where: { slug: envSlug } });
  if (!environment) throw new UsageError(`no environment "${envSlug}"`);
  const fields = {
    title: args.flags.get("title") ?? "Test notification",
    body: args.flags.get("body") ?? "Sent from the admin command line.",
    category: args.flags.get("category"),
    severity: args.flags.get("severity"),
    link: args.flags.get("link"),
  } as Parameters<typeof createNotifications>[0];
  const ids: string[] = [];
  try {
    for (let i = 0; i < count; i++) {
      ids.push(...(await createNotifications({ ...fields, db: db(), environmentId: environment.id, recipients: { clientIds: [clientId] } })));
    }
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    const reasons = error.errors?.map((problem) => `${problem.field === "clientIds" ? "--client" : `--${problem.field}`}: ${problem.message}`);
    throw new UsageError(reasons?.join("; ") ?? error.message);
  }
  return { ids };
}

export const commands: CommandGroup = { create: command(CREATE_HELP, create) };
