import { UsageError } from "./args";
import { type CommandGroup, command } from "./command";

const list = command({ usage: "environment list", summary: "Lists the environments with their gateway settings." }, async (args) => {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
  const { db } = await import("../../lib/db");
  try {
    const environments = await db().environment.findMany({ orderBy: [{ position: "asc" }, { slug: "asc" }] });
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
  } finally {
    await db().$disconnect();
  }
});

export const commands: CommandGroup = { list };
