import { noPositionals, requiredFlag } from "./args";
import { type CommandGroup, command } from "./command";

const list = command(
  { usage: "subscription list [--plan <slug>]", summary: "Lists every subscription with the quota used and left in its current period." },
  async (args) => {
    noPositionals(args);
    const [{ db }, { listSubscriptions }] = await Promise.all([import("../db"), import("../subscriptions/list-subscriptions")]);
    const plan = args.flags.get("plan");
    const subscriptions = await listSubscriptions({ db: db(), viewer: "operator", plan });
    return {
      subscriptions: subscriptions.map((row) => ({
        id: row.id,
        application: row.application,
        env: row.environment,
        api: row.api,
        plan: row.plan,
        used: row.usage.used,
        remaining: row.usage.remaining,
        quota: `${row.quota.requests} per ${row.quota.period}`,
        resets: row.usage.periodEnd,
        pending: row.pending ? `${row.pending.plan} (${row.pending.requestId})` : "",
      })),
    };
  },
);

/** The operator's subscription applies at once, whatever the plan's approval: the operator is the one who approves. */
const create = command(
  {
    usage: "subscription create --app <name> --env <slug> --api <slug> --plan <slug>",
    summary: "Subscribes an application to a plan of an API in an environment; it applies at once.",
  },
  async (args) => {
    noPositionals(args);
    const subscription = {
      application: requiredFlag(args, "app"),
      environment: requiredFlag(args, "env"),
      api: requiredFlag(args, "api"),
      plan: requiredFlag(args, "plan"),
    };
    const [{ db }, { CLI_ACTOR }, { subscribe }] = await Promise.all([import("../db"), import("../audit/write-audit"), import("../subscriptions/subscribe")]);
    return await subscribe({ db: db(), by: { operator: CLI_ACTOR }, subscription });
  },
);

export const commands: CommandGroup = { list, create };
