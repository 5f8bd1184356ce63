import { z } from "zod";
import { passwordSchema } from "../password-policy";
import { noPositionals, requiredFlag, UsageError } from "./args";
import { type CommandGroup, command } from "./command";

const userSchema = z.object({
  email: z.email().max(254),
  password: passwordSchema,
  role: z.enum(["ADMIN", "DEVELOPER"], "must be ADMIN or DEVELOPER"),
  name: z.string().min(1).max(100),
});

function checkedPassword(password: string): string {
  const parsed = passwordSchema.safeParse(password);
  if (!parsed.success) throw new UsageError(`--password: ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}

const create = command(
  {
    usage: "user create --email <email> --password <password> --role ADMIN|DEVELOPER [--name <name>]",
    summary: "Creates a portal account that signs in with a password.",
  },
  async (args) => {
    noPositionals(args);
    const email = requiredFlag(args, "email").toLowerCase();
    const parsed = userSchema.safeParse({
      email,
      password: requiredFlag(args, "password"),
      role: requiredFlag(args, "role").toUpperCase(),
      name: args.flags.get("name") ?? email.split("@")[0],
    });
    if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => `--${String(issue.path[0])}: ${issue.message}`).join("; "));
    const [{ db }, { newId }, { hashPassword }, { CLI_ACTOR, recordAudit }] = await Promise.all([
      import("../db"),
      import("../ids"),
      import("../accounts/passwords"),
      import("../audit/write-audit"),
    ]);
    if (await db().user.findUnique({ where: { email } })) {
      throw new UsageError(`--email: a user "${email}" exists already; to change its password, run user set-password`);
    }
    const { password, ...fields } = parsed.data;
    const user = await db().user.create({ data: { id: newId("usr"), ...fields, passwordHash: await hashPassword(password) } });
    await recordAudit(db(), CLI_ACTOR, { action: "user.create", targetType: "user", targetId: user.id, details: { email, role: user.role } });
    return { id: user.id, email: user.email, role: user.role };
  },
);

const setPassword = command(
  {
    usage: "user set-password --email <email> (--password <password> | --generate)",
    summary: "Sets a user's password; --generate picks a random one and prints it once.",
  },
  async (args) => {
    noPositionals(args);
    const email = requiredFlag(args, "email").toLowerCase();
    const given = args.flags.get("password");
    const generate = args.flags.has("generate");
    if ((given === undefined) === !generate) throw new UsageError("give either --password <password> or --generate");
    const [{ db }, { hashPassword, randomPassword }, { CLI_ACTOR, recordAudit }] = await Promise.all([
      import("../db"),
      import("../accounts/passwords"),
      import("../audit/write-audit"),
    ]);
    const password = given === undefined ? randomPassword() : checkedPassword(given);
    const user = await db().user.findUnique({ where: { email } });
    if (!user) throw new UsageError(`--email: no user "${email}"`);
    await db().user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password) } });
    await recordAudit(db(), CLI_ACTOR, { action: "user.password.set", targetType: "user", targetId: user.id, details: { email } });
    return { id: user.id, email: user.email, ...(generate ? { password } : {}) };
  },
);

const list = command({ usage: "user list", summary: "Lists the portal's accounts." }, async (args) => {
  noPositionals(args);
  const { db } = await import("../db");
  const users = await db().user.findMany({ orderBy: { email: "asc" } });
  return {
    users: users.map((user) => ({
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      disabled: user.disabledAt !== null,
      createdAt: user.createdAt.toISOString(),
    })),
  };
});

export const commands: CommandGroup = { create, "set-password": setPassword, list };
