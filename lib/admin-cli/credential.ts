import { readFileSync } from "node:fs";
import { dateFlag, noPositionals, requiredFlag, UsageError } from "./args";
import { type CommandGroup, command } from "./command";
import { asUsageError } from "./problem-usage";

/** The client's public keys from --jwks-file or --jwks-uri, for private_key_jwt; none for a credential with a secret. */
function keysFrom(flags: Map<string, string>): { jwks: unknown } | { jwksUri: string } | undefined {
  const file = flags.get("jwks-file");
  const uri = flags.get("jwks-uri");
  if (file !== undefined && uri !== undefined) throw new UsageError("give --jwks-file or --jwks-uri, not both");
  if (uri !== undefined) return { jwksUri: uri };
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`--jwks-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    return { jwks: JSON.parse(text) };
  } catch {
    throw new UsageError(`--jwks-file: ${file} is not JSON`);
  }
}

const create = command(
  {
    usage:
      'credential create --app <name> --env <slug> [--scope "<scopes>"] [--owner <email>] [--team <name>] [--expires <date>] [--jwks-file <file> | --jwks-uri <url>] [--dpop]',
    summary:
      "Creates a credential (and its application if needed) and prints its client secret once; with --jwks-file or --jwks-uri its client authenticates with private_key_jwt and it has no secret; with --dpop it gets only DPoP-bound tokens (RFC 9449).",
  },
  async (args) => {
    noPositionals(args);
    const appName = requiredFlag(args, "app");
    const envSlug = requiredFlag(args, "env");
    const scopeFlag = args.flags.get("scope");
    const scopes = scopeFlag === undefined ? undefined : scopeFlag.split(/\s+/).filter(Boolean);
    if (scopes?.length === 0) throw new UsageError("--scope needs at least one scope");
    const secretExpiresAt = dateFlag(args, "expires");
    const keys = keysFrom(args.flags);
    const [{ db }, { CLI_ACTOR }, { createNewCredential }] = await Promise.all([
      import("../db"),
      import("../audit/write-audit"),
      import("../credentials/new-credential"),
    ]);
    const ownerEmail = args.flags.get("owner");
    const owner = ownerEmail ? await db().user.findUnique({ where: { email: ownerEmail.toLowerCase() } }) : null;
    if (ownerEmail && !owner) throw new UsageError(`--owner: no user "${ownerEmail}"`);
    const teamName = args.flags.get("team");
    const team = teamName === undefined ? undefined : await (await import("./team")).teamByName(teamName);
    if (!(await db().environment.findUnique({ where: { slug: envSlug } }))) throw new UsageError(`--env: no environment "${envSlug}"`);
    const input = { application: appName, environment: envSlug, team: team?.id, ...keys, requireDpop: args.flags.has("dpop") };
    const { credential, secret } = await asUsageError(
      () => createNewCredential({ db: db(), input, by: { operator: CLI_ACTOR, ownerId: owner?.id ?? null, scopes, secretExpiresAt } }),
      { application: "--app", name: "--app", scopes: "--scope", expiresAt: "--expires", jwks: "--jwks-file", jwksUri: "--jwks-uri", team: "--team" },
    );
    return {
      clientId: credential.clientId,
      clientSecret: secret?.clientSecret ?? null,
      authMethod: credential.authentication.method,
      requireDpop: credential.requireDpop,
      env: envSlug,
      scopes: credential.grants.flatMap((grant) => grant.scopes),
    };
  },
);

const revoke = command({ usage: "credential revoke <clientId>", summary: "Revokes a credential: its secrets and tokens stop working." }, async (args) => {
  const [clientId, ...rest] = args.positionals;
  if (!clientId || rest.length > 0) throw new UsageError("usage: admin credential revoke <clientId>");
  const [{ db }, { CLI_ACTOR }, { revokeCredential }] = await Promise.all([
    import("../db"),
    import("../audit/write-audit"),
    import("../credentials/credentials"),
  ]);
  const revoked = await asUsageError(() => revokeCredential({ db: db(), actor: CLI_ACTOR, clientId }));
  return { clientId: revoked.clientId, status: revoked.status, revokedAt: revoked.revokedAt?.toISOString() ?? null };
});

const grant = command(
  {
    usage: 'credential grant --client <clientId> --api <slug> [--scopes "<scopes>"]',
    summary: "Grants a credential an API of its environment, with --scopes or every scope the API defines; on an existing grant, sets its scopes.",
  },
  async (args) => {
    noPositionals(args);
    const clientId = requiredFlag(args, "client");
    const apiSlug = requiredFlag(args, "api");
    const scopesFlag = args.flags.get("scopes");
    const scopes = scopesFlag === undefined ? undefined : scopesFlag.split(/\s+/).filter(Boolean);
    if (scopes?.length === 0) throw new UsageError("--scopes needs at least one scope");
    const [{ db }, { CLI_ACTOR }, { grantApi }] = await Promise.all([import("../db"), import("../audit/write-audit"), import("../credentials/grants")]);
    return await asUsageError(() => grantApi({ db: db(), actor: CLI_ACTOR, clientId, apiSlug, scopes }));
  },
);

const revokeGrant = command(
  { usage: "credential revoke-grant --client <clientId> --api <slug>", summary: "Ends a credential's access to one API; its other grants stay." },
  async (args) => {
    noPositionals(args);
    const clientId = requiredFlag(args, "client");
    const apiSlug = requiredFlag(args, "api");
    const [{ db }, { CLI_ACTOR }, { revokeGrant }] = await Promise.all([import("../db"), import("../audit/write-audit"), import("../credentials/grants")]);
    return await asUsageError(() => revokeGrant({ db: db(), actor: CLI_ACTOR, clientId, apiSlug }));
  },
);

const DURATION_UNITS = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;

/** "90s", "30m", "1h", "1d" or a number of seconds, as whole seconds. */
function parseOverlap(value: string | undefined): number {
  if (value === undefined) return 0;
  const match = /^(\d{1,6})([smhd]?)$/.exec(value.trim());
  if (!match) throw new UsageError('--overlap must be a duration such as "90s", "30m", "1h" or "0"');
  return Number(match[1]) * DURATION_UNITS[(match[2] || "s") as keyof typeof DURATION_UNITS];
}

const rotate = command(
  {
    usage: "credential rotate <clientId> [--overlap <duration>]",
    summary: "Issues a new client secret and prints it once; the previous one keeps working for --overlap (default 0, at most 24h).",
  },
  async (args) => {
    const [clientId, ...rest] = args.positionals;
    if (!clientId || rest.length > 0) throw new UsageError("usage: admin credential rotate <clientId> [--overlap <duration>]");
    const graceSeconds = parseOverlap(args.flags.get("overlap"));
    const [{ db }, { CLI_ACTOR }, { rotateSecret }] = await Promise.all([
      import("../db"),
      import("../audit/write-audit"),
      import("../credentials/credentials"),
    ]);
    const issued = await asUsageError(() => rotateSecret({ db: db(), actor: CLI_ACTOR, clientId, graceSeconds }), { graceSeconds: "--overlap" });
    return {
      clientId: issued.clientId,
      clientSecret: issued.clientSecret,
      expiresAt: issued.expiresAt?.toISOString() ?? null,
      previousSecretValidUntil: issued.previousSecretValidUntil?.toISOString() ?? null,
    };
  },
);

const list = command(
  {
    usage: "credential list [--env <slug>] [--app <name>] [--owner <email>]",
    summary: "Lists credentials with their environment, application, state and the APIs and scopes granted; secrets are never shown.",
  },
  async (args) => {
    noPositionals(args);
    const [{ db }, { listAllCredentials }] = await Promise.all([import("../db"), import("../credentials/credentials")]);
    const ownerEmail = args.flags.get("owner")?.toLowerCase();
    const found = await listAllCredentials({ db: db(), filter: { envSlug: args.flags.get("env"), applicationName: args.flags.get("app"), ownerEmail } });
    return {
      credentials: found.map((credential) => ({
        clientId: credential.clientId,
        env: credential.environment.slug,
        application: credential.application.name,
        status: credential.status,
        apis: credential.grants.map((grant) => grant.apiSlug),
        scopes: credential.grants.flatMap((grant) => grant.scopes),
        lastUsedAt: credential.lastUsedAt?.toISOString() ?? null,
      })),
    };
  },
);

const rateLimit = command(
  {
    usage: "credential rate-limit <clientId> (--burst <N> --per-second <N> | --clear)",
    summary: "Gives one credential its own rate-limit policy, or --clear to follow its environment's again.",
  },
  async (args) => {
    const [clientId, ...rest] = args.positionals;
    const clear = args.flags.has("clear");
    if (!clientId || rest.length > 0 || (clear && (args.flags.has("burst") || args.flags.has("per-second")))) {
      throw new UsageError("usage: admin credential rate-limit <clientId> (--burst N --per-second N | --clear)");
    }
    const policy = clear ? null : { burst: requiredFlag(args, "burst"), perSecond: requiredFlag(args, "per-second") };
    const [{ db }, { CLI_ACTOR }, { setCredentialRateLimit }] = await Promise.all([
      import("../db"),
      import("../audit/write-audit"),
      import("../limiters/set-rate-limits"),
    ]);
    return await asUsageError(() => setCredentialRateLimit({ db: db(), actor: CLI_ACTOR, clientId, policy }), { burst: "--burst", perSecond: "--per-second" });
  },
);

const trust = command(
  {
    usage: "credential trust --client <clientId> --issuer <url> --audience <aud> --subject <pattern>",
    summary:
      "Makes a credential trust an external OIDC issuer (workload identity federation): its client then authenticates with that issuer's ID tokens for --audience whose sub matches --subject (* for any characters); its secrets end.",
  },
  async (args) => {
    noPositionals(args);
    const clientId = requiredFlag(args, "client");
    const trust = { issuer: requiredFlag(args, "issuer"), audience: requiredFlag(args, "audience"), subject: requiredFlag(args, "subject") };
    const [{ db }, { CLI_ACTOR }, { trustIssuer }] = await Promise.all([import("../db"), import("../audit/write-audit"), import("../credentials/credentials")]);
    const trusted = await asUsageError(() => trustIssuer({ db: db(), actor: CLI_ACTOR, clientId, trust }), {
      issuer: "--issuer",
      audience: "--audience",
      subject: "--subject",
    });
    return { clientId: trusted.clientId, authentication: trusted.authentication };
  },
);

export const commands: CommandGroup = { create, trust, rotate, revoke, list, grant, "revoke-grant": revokeGrant, "rate-limit": rateLimit };
