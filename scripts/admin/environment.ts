import type { CommandGroup } from "../admin";
import { allowOnly, type ParsedArgs, requiredFlag, UsageError } from "./args";
import { asUsageError } from "./problem-usage";

const POLICY_FLAGS = { burst: "--burst", perSecond: "--per-second" };

/** `environment rate-limit <env> --burst N --per-second N`: the default of the environment's credentials. */
async function rateLimit(args: ParsedArgs) {
  allowOnly(args, ["burst", "per-second"]);
  const [envSlug, ...rest] = args.positionals;
  if (!envSlug || rest.length > 0) throw new UsageError("usage: admin environment rate-limit <env> --burst N --per-second N");
  const policy = { burst: requiredFlag(args, "burst"), perSecond: requiredFlag(args, "per-second") };
  const [{ db }, { CLI_ACTOR }, { setEnvironmentRateLimit }] = await Promise.all([
    import("../../lib/db"),
    import("../../lib/portal/audit"),
    import("../../lib/portal/rate-limits"),
  ]);
  try {
    return await asUsageError(() => setEnvironmentRateLimit({ db: db(), actor: CLI_ACTOR, envSlug, policy }), POLICY_FLAGS);
  } finally {
    await db().$disconnect();
  }
}

export const commands: CommandGroup = { "rate-limit": rateLimit };
