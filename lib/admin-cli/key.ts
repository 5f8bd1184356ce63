import { dateFlag, noPositionals, type ParsedArgs, requiredFlag, UsageError } from "./args";
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

function keyServices() {
  return Promise.all([import("../db"), import("../audit/write-audit"), import("../credentials/api-keys")]);
}

/** The one id a command on a key takes. */
function keyId(args: ParsedArgs, usage: string): string {
  const [id, ...rest] = args.positionals;
  if (!id || rest.length > 0) throw new UsageError(`usage: admin ${usage}`);
  return id;
}

const create = command(
  {
    usage: "key create --app <name> --env <slug> [--expires <date>]",
    summary:
      "Creates an API key (gk_…) of the application's active credential in the environment and prints it once, in `key`; it calls with that credential's grants and scopes.",
  },
  async (args) => {
    noPositionals(args);
    const input = { application: requiredFlag(args, "app"), environment: requiredFlag(args, "env"), expiresAt: dateFlag(args, "expires") };
    const [{ db }, { CLI_ACTOR }, { createApiKey }] = await keyServices();
    const { key, apiKey } = await createApiKey({ db: db(), actor: CLI_ACTOR, viewer: "operator", input });
    return { key, ...apiKey };
  },
);

const roll = command(
  {
    usage: "key roll <id> [--overlap <duration>]",
    summary:
      "Issues a new key of the same credential, printed once in `key`; the old key keeps working for the overlap (24h unless given, e.g. 1h, 7d; at most 30d).",
  },
  async (args) => {
    const id = keyId(args, "key roll <id> [--overlap 1h]");
    const overlap = args.flags.get("overlap");
    const [{ db }, { CLI_ACTOR }, { rollApiKey }] = await keyServices();
    const { key, apiKey, previous } = await rollApiKey({ db: db(), actor: CLI_ACTOR, viewer: "operator", id, input: overlap === undefined ? {} : { overlap } });
    return { key, ...apiKey, previous: { id: previous.id, expiresAt: previous.expiresAt } };
  },
);

const revoke = command(
  {
    usage: "key revoke <id> [--last]",
    summary: "Revokes an API key at once; the last active key of an application in an environment needs --last.",
  },
  async (args) => {
    const id = keyId(args, "key revoke <id> [--last]");
    const [{ db }, { CLI_ACTOR }, { revokeApiKey }] = await keyServices();
    return revokeApiKey({ db: db(), actor: CLI_ACTOR, viewer: "operator", id, input: { last: args.flags.has("last") } });
  },
);

const list = command(
  {
    usage: "key list [--env <slug>] [--app <name>]",
    summary: "Lists API keys with their application, environment, state and last four characters; keys are never shown.",
  },
  async (args) => {
    noPositionals(args);
    const [{ db }, , { listApiKeys }] = await keyServices();
    const keys = await listApiKeys({ db: db(), viewer: "operator", environment: args.flags.get("env"), application: args.flags.get("app") });
    return { keys };
  },
);

export const commands: CommandGroup = { rotate: command(ROTATE_HELP, rotate), create, roll, revoke, list };
