import { noPositionals, requiredFlag, UsageError } from "./args";
import { type CommandGroup, command } from "./command";
import { asUsageError } from "./problem-usage";

const list = command({ usage: "environment list", summary: "Lists the environments with their gateway settings." }, async (args) => {
  noPositionals(args);
  const [{ db }, { listEnvironments }] = await Promise.all([import("../db"), import("../environments/environments")]);
  const environments = await listEnvironments({ db: db() });
  return {
    environments: environments.map((env) => ({
      slug: env.slug,
      name: env.name,
      credentialType: env.credentialType,
      selfService: env.selfService,
      tokenLifetimeSeconds: env.tokenLifetimeSeconds,
      rateLimit: `${env.rateLimitPerSecond}/s burst ${env.rateLimitBurst}`,
    })),
  };
});

const POLICY_FLAGS = { burst: "--burst", perSecond: "--per-second" };

/** The default rate limit of the environment's credentials. */
const rateLimit = command(
  {
    usage: "environment rate-limit <env> --burst <N> --per-second <N>",
    summary: "Sets the rate-limit policy every credential of the environment gets by default.",
  },
  async (args) => {
    const [envSlug, ...rest] = args.positionals;
    if (!envSlug || rest.length > 0) throw new UsageError("usage: admin environment rate-limit <env> --burst N --per-second N");
    const policy = { burst: requiredFlag(args, "burst"), perSecond: requiredFlag(args, "per-second") };
    const [{ db }, { CLI_ACTOR }, { setEnvironmentRateLimit }] = await Promise.all([
      import("../db"),
      import("../audit/write-audit"),
      import("../limiters/set-rate-limits"),
    ]);
    return await asUsageError(() => setEnvironmentRateLimit({ db: db(), actor: CLI_ACTOR, envSlug, policy }), POLICY_FLAGS);
  },
);

export const commands: CommandGroup = { list, "rate-limit": rateLimit };
