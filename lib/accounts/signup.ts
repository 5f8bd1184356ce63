import "server-only";
import { z } from "zod";
import { clientAddress, retryAfter, sharedThrottle } from "../limiters/throttle";
import type { Config } from "../config";
import { type DbClient, inTransaction, type Tx } from "../db";
import { problem, type ProblemError, zodProblem } from "../http/problem";
import { newId } from "../ids";
import { passwordSchema } from "../password-policy";
import { type Actor, recordAudit } from "../audit/write-audit";
import { recordEvent } from "../events/record-event";
import { hashPassword } from "./passwords";

export const signupSchema = z.strictObject({
  email: z.email("Enter an email address").max(320),
  name: z.string().trim().min(1, "Enter your name").max(200),
  password: passwordSchema,
});

export type SignupMode = Config["signup"];

const FIFTEEN_MINUTES = 15 * 60;
const MAX_SIGNUPS_PER_ADDRESS = 10;
const MAX_SIGNUPS_PER_EMAIL = 3;
const attemptsPerAddress = () => sharedThrottle("sign-up-address", FIFTEEN_MINUTES);
const attemptsPerEmail = () => sharedThrottle("sign-up-email", FIFTEEN_MINUTES);

/**
 * The one answer to every accepted sign-up, whether the address was new or
 * already had an account, so that sign-up cannot tell which accounts exist.
 */
export function signupReceipt(mode: Exclude<SignupMode, "closed">) {
  return mode === "open"
    ? { status: "received", message: "If this address is new, its account is ready: sign in with it and the password you chose." }
    : { status: "received", message: "Thanks. An administrator reviews new accounts; once yours is approved you can sign in with this address." };
}

function throttled(retryAfter: number): ProblemError {
  return problem("too-many-requests", {
    detail: `Wait ${Math.ceil(retryAfter / 60)} minutes before signing up again.`,
    headers: { "retry-after": String(retryAfter) },
  });
}

/**
 * Creates a developer account. With `approval` it is disabled and joins the
 * admins' queue as an ACCOUNT request; with `open` it can sign in at once.
 * An address that has an account already changes nothing and answers the same.
 */
export async function signUp({ db, input, mode, headers }: { db: DbClient; input: unknown; mode: SignupMode; headers: Headers }) {
  if (mode === "closed") throw problem("signup-closed", { detail: "Ask an administrator for an account." });
  const address = clientAddress(headers);
  const parsed = signupSchema.safeParse(input);
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const email = parsed.data.email.toLowerCase();
  const wait = await retryAfter([
    { throttle: attemptsPerAddress(), key: address, limit: MAX_SIGNUPS_PER_ADDRESS },
    { throttle: attemptsPerEmail(), key: `${address}|${email}`, limit: MAX_SIGNUPS_PER_EMAIL },
  ]);
  if (wait > 0) throw throttled(wait);
  await Promise.all([attemptsPerAddress().record(address), attemptsPerEmail().record(`${address}|${email}`)]);
  // Hashed either way, so a known address costs the same time as a new one.
  const passwordHash = await hashPassword(parsed.data.password);
  if (await db.user.findUnique({ where: { email } })) return signupReceipt(mode);
  const pending = mode === "approval";
  await inTransaction(db, async (tx) => {
    const user = await tx.user.create({
      data: { id: newId("usr"), email, name: parsed.data.name, role: "DEVELOPER", passwordHash, disabledAt: pending ? new Date() : null },
    });
    if (pending) {
      await tx.accessRequest.create({
        data: { id: newId("req"), topic: "ACCOUNT", requesterId: user.id, name: user.name, email, message: "Asks for a developer account." },
      });
    }
    await recordAudit(tx, { userId: user.id, label: email }, { action: "user.signup", targetType: "user", targetId: user.id, details: { email, pending } });
    if (pending) await recordEvent(tx, "signup.pending", { userId: user.id, email, name: user.name });
  });
  return signupReceipt(mode);
}

/**
 * An admin's decision on an ACCOUNT request (the request is already claimed):
 * approval enables the account; rejection deletes it, so the address can sign up again.
 */
export async function decideSignup(input: {
  db: Tx;
  request: { id: string; requesterId: string | null; email: string; name: string };
  approved: boolean;
  actor: Actor;
}) {
  const { db, request, approved, actor } = input;
  if (request.requesterId) {
    // Only an account still waiting is touched: one an admin enabled or disabled since keeps its state.
    const waiting = { id: request.requesterId, disabledAt: { not: null } };
    if (approved) {
      const enabled = await db.user.updateMany({ where: waiting, data: { disabledAt: null } });
      if (enabled.count === 1) await recordEvent(db, "signup.approved", { userId: request.requesterId, email: request.email, name: request.name });
    } else await db.user.deleteMany({ where: { ...waiting, applications: { none: {} } } });
  }
  await recordAudit(db, actor, {
    action: approved ? "user.signup.approve" : "user.signup.reject",
    targetType: "access-request",
    targetId: request.id,
    details: { email: request.email },
  });
}
