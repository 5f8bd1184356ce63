import { z } from "zod";
import type { CommandGroup } from "../admin";
import { allowOnly, type ParsedArgs, requiredFlag, UsageError } from "./args";

const userSchema = z.object({
  email: z.email().max(254),
  password: z.string().min(8, "must be at least 8 characters").max(200),
  role: z.enum(["ADMIN", "DEVELOPER"], "must be ADMIN or DEVELOPER"),
  name: z.string().min(1).max(100),
});

/** `user create --email <e> --password <p> --role ADMIN|DEVELOPER [--name <name>]` */
async function create(args: ParsedArgs) {
  allowOnly(args, ["email", "password", "role", "name"]);
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${args.positionals[0]}`);
  const email = requiredFlag(args, "email").toLowerCase();
  const parsed = userSchema.safeParse({
    email,
    password: requiredFlag(args, "password"),
    role: requiredFlag(args, "role").toUpperCase(),
    name: args.flags.get("name") ?? email.split("@")[0],
  });
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => `--${String(issue.path[0])}: ${issue.message}`).join("; "));
  const [{ db }, { newId }, { hashPassword }, { CLI_ACTOR, recordAudit }] = await Promise.all([
    import("../../lib/db"),
    import("../../lib/ids"),
    import("../../lib/portal/passwords"),
    import("../../lib/portal/audit"),
  ]);
  try {
    if (await db().user.findUnique({ where: { email } })) throw new UsageError(`--email: a user "${email}" exists already`);
    const { password, ...fields } = parsed.data;
    const user = await db().user.create({ data: { id: newId("usr"), ...fields, passwordHash: await hashPassword(password) } });
    await recordAudit(db(), CLI_ACTOR, { action: "user.create", targetType: "user", targetId: user.id, details: { email, role: user.role } });
    return { id: user.id, email: user.email, role: user.role };
  } finally {
    await db().$disconnect();
  }
}

export const commands: CommandGroup = { create };
