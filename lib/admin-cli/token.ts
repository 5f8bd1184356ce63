import { noPositionals, requiredFlag, UsageError } from "./args";
import { type CommandGroup, command } from "./command";
import { asUsageError } from "./problem-usage";

/** `30d` (days only: tokens expire on a day scale). */
function parseDays(value: string): number {
  const match = /^(\d{1,4})d$/.exec(value);
  if (!match) throw new UsageError("--expires-in must be a number of days such as 30d");
  return Number(match[1]);
}

async function userByEmail(email: string) {
  const { db } = await import("../db");
  const user = await db().user.findUnique({ where: { email: email.toLowerCase() } });
  if (!user) throw new UsageError(`--user: no user "${email}"`);
  return user;
}

function described(token: {
  id: string;
  name: string;
  hint: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}) {
  return {
    id: token.id,
    name: token.name,
    hint: token.hint,
    scopes: token.scopes,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}

const create = command(
  {
    usage: 'token create --user <email> --scopes "<scopes>" --expires-in <days>d [--name <name>]',
    summary: "Creates a personal access token for the management API (/api/v1) and prints it once.",
  },
  async (args) => {
    noPositionals(args);
    const user = await userByEmail(requiredFlag(args, "user"));
    const scopes = requiredFlag(args, "scopes")
      .split(/[\s,]+/)
      .filter(Boolean);
    const expiresInDays = parseDays(requiredFlag(args, "expires-in"));
    const [{ db }, { CLI_ACTOR }, { createAccessToken }] = await Promise.all([
      import("../db"),
      import("../audit/write-audit"),
      import("../access-tokens/access-tokens"),
    ]);
    const { token, accessToken } = await asUsageError(
      () => createAccessToken({ db: db(), actor: CLI_ACTOR, owner: user, input: { name: args.flags.get("name") ?? "cli", scopes, expiresInDays } }),
      { expiresInDays: "--expires-in" },
    );
    return { ...described(accessToken), user: user.email, token };
  },
);

const list = command(
  { usage: "token list --user <email>", summary: "Lists a user's personal access tokens, newest first; never the tokens themselves." },
  async (args) => {
    noPositionals(args);
    const user = await userByEmail(requiredFlag(args, "user"));
    const [{ db }, { listAccessTokens }] = await Promise.all([import("../db"), import("../access-tokens/access-tokens")]);
    return { user: user.email, tokens: (await listAccessTokens({ db: db(), userId: user.id })).map(described) };
  },
);

const revoke = command({ usage: "token revoke <id>", summary: "Revokes a personal access token: the management API refuses it at once." }, async (args) => {
  const [id, ...rest] = args.positionals;
  if (!id || rest.length > 0) throw new UsageError("usage: admin token revoke <id>");
  const [{ db }, { CLI_ACTOR }, { revokeAccessToken }] = await Promise.all([
    import("../db"),
    import("../audit/write-audit"),
    import("../access-tokens/access-tokens"),
  ]);
  return described(await asUsageError(() => revokeAccessToken({ db: db(), actor: CLI_ACTOR, id })));
});

export const commands: CommandGroup = { create, list, revoke };
