import { UsageError } from "./args";
import { type CommandGroup, command } from "./command";

const list = command({ usage: "api list", summary: "Lists the registered APIs and the environments that serve them." }, async (args) => {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
  const { db } = await import("../../lib/db");
  try {
    const apis = await db().api.findMany({ orderBy: { slug: "asc" }, include: { environments: { include: { environment: { select: { slug: true } } } } } });
    return {
      apis: apis.map((api) => ({
        slug: api.slug,
        name: api.name,
        version: api.version,
        kind: api.kind,
        public: api.isPublic,
        environments: api.environments.map((served) => served.environment.slug),
      })),
    };
  } finally {
    await db().$disconnect();
  }
});

export const commands: CommandGroup = { list };
