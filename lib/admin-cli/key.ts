import { noPositionals, type ParsedArgs, requiredFlag, UsageError } from "./args";
import { type CommandGroup, command } from "./command";

const ROTATE_HELP = {
  usage: "key rotate --env <slug>",
  summary: "A new signing key signs the environment's tokens; the old ones stay in the JWKS until their tokens have expired.",
};

async function rotate(args: ParsedArgs) {
  noPositionals(args);
  const envSlug = requiredFlag(args, "env");
  const [{ db }, { config }, { openDriver }, { createDataPlaneStore }, { rotateSigningKey }, { CLI_ACTOR, recordAudit }] = await Promise.all([
    import("../db"),
    import("../config"),
    import("../data-plane/connection"),
    import("../data-plane/store-for-connection"),
    import("../oauth/signing-keys"),
    import("../audit/write-audit"),
  ]);
  const connection = openDriver(config().databaseUrl, { poolSize: config().databasePoolSize });
  const rotated = await rotateSigningKey({ store: createDataPlaneStore(connection), envSlug, authSecret: config().authSecret }).finally(() =>
    connection.close(),
  );
  if (!rotated) throw new UsageError(`--env: no environment "${envSlug}"`);
  await recordAudit(db(), CLI_ACTOR, {
    action: "key.rotate",
    targetType: "environment",
    targetId: envSlug,
    details: { kid: rotated.kid, retired: rotated.retired },
  });
  return { env: envSlug, kid: rotated.kid, retired: rotated.retired, retiredPublishedUntil: rotated.retiredPublishedUntil?.toISOString() ?? null };
}

export const commands: CommandGroup = { rotate: command(ROTATE_HELP, rotate) };
