import "server-only";
import { z } from "zod";
import type { PortalUser } from "../actors/portal-user";
import { type DbClient, inTransaction } from "../db";
import { problem, validationProblem, zodProblem } from "../http/problem";
import { newId } from "../ids";
import { recordAudit } from "../audit/write-audit";
import { actorOf } from "../audit/portal-actor";
import { passwordSchema } from "../password-policy";
import { hashPassword } from "./passwords";

export const newUserSchema = z.strictObject({
  email: z.email("Enter an email address").max(320),
  name: z.string().trim().min(1, "Enter a name").max(200),
  password: passwordSchema,
  role: z.enum(["ADMIN", "DEVELOPER"], { message: "Choose ADMIN or DEVELOPER" }),
});

export const userChangeSchema = z
  .strictObject({ role: z.enum(["ADMIN", "DEVELOPER"]).optional(), disabled: z.boolean().optional() })
  .refine((change) => change.role !== undefined || change.disabled !== undefined, { message: "Change the role or the disabled flag" });

export function listUsers({ db }: { db: DbClient }) {
  return db.user.findMany({
    orderBy: { email: "asc" },
    select: { id: true, email: true, name: true, role: true, disabledAt: true, createdAt: true, ssoSubject: true },
  });
}

export async function createUser({ db, admin, input }: { db: DbClient; admin: PortalUser; input: unknown }) {
  const parsed = newUserSchema.safeParse(input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const email = parsed.data.email.toLowerCase();
  if (await db.user.findUnique({ where: { email } })) throw validationProblem([{ in: "body", field: "email", message: "A user has this email already" }]);
  const passwordHash = await hashPassword(parsed.data.password);
  return inTransaction(db, async (tx) => {
    const user = await tx.user.create({ data: { id: newId("usr"), email, name: parsed.data.name, role: parsed.data.role, passwordHash } });
    await recordAudit(tx, actorOf(admin), { action: "user.create", targetType: "user", targetId: user.id, details: { email, role: user.role } });
    return { id: user.id, email: user.email, role: user.role };
  });
}

/** Role changes and disabling apply on the user's next request; admins cannot lock themselves out. */
export async function changeUser({ db, admin, userId, input }: { db: DbClient; admin: PortalUser; userId: string; input: unknown }) {
  const parsed = userChangeSchema.safeParse(input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const user = userId ? await db.user.findUnique({ where: { id: userId } }) : null;
  if (!user) throw problem("not-found", { detail: `There is no user "${userId}".` });
  if (user.id === admin.id) throw problem("own-account", { detail: "Ask another administrator to change your own role or access." });
  const { role, disabled } = parsed.data;
  return inTransaction(db, async (tx) => {
    const updated = await tx.user.update({
      where: { id: user.id },
      data: { ...(role ? { role } : {}), ...(disabled === undefined ? {} : { disabledAt: disabled ? new Date() : null }) },
    });
    await recordAudit(tx, actorOf(admin), {
      action: "user.update",
      targetType: "user",
      targetId: user.id,
      details: { email: user.email, ...(role ? { role: { from: user.role, to: role } } : {}), ...(disabled === undefined ? {} : { disabled }) },
    });
    return { id: updated.id, role: updated.role, disabled: updated.disabledAt !== null };
  });
}
