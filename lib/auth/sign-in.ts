import "server-only";
import type { DbClient } from "../db";
import { newId } from "../ids";
import { hashPassword, verifyPassword } from "../accounts/passwords";
import { clientAddress, retryAfter, sharedThrottle } from "../limiters/throttle";

const FIFTEEN_MINUTES = 15 * 60;
/** Wrong passwords for one email from one address, and from one address for any email. */
const failures = () => sharedThrottle("sign-in", FIFTEEN_MINUTES);
export const MAX_FAILURES_PER_EMAIL_AND_ADDRESS = 5;
export const MAX_FAILURES_PER_ADDRESS = 30;

let dummyHash: Promise<string> | undefined;

export type SignedInUser = { id: string; email: string; name: string; role: string };

/** A sign-up still in the admins' queue (SIGNUP=approval), told so only once its password is right. */
export const AWAITING_APPROVAL = "awaiting-approval";

/**
 * Checks an email and password. Unknown emails cost the same scrypt work as
 * wrong passwords, so timing does not tell which accounts exist. Failures are
 * throttled per (email, address) and per address, so a guesser slows only
 * itself: the owner's correct password from their own address always works.
 */
export async function verifyPasswordSignIn(input: {
  db: DbClient;
  email: string;
  password: string;
  headers: Headers | Record<string, string | undefined>;
}): Promise<SignedInUser | null | "throttled" | typeof AWAITING_APPROVAL> {
  const { db, email, password, headers } = input;
  const emailKey = email.toLowerCase();
  const address = clientAddress(headers);
  const pairKey = `${emailKey}|${address}`;
  const addressKey = `address:${address}`;
  const throttled = await retryAfter([
    { throttle: failures(), key: pairKey, limit: MAX_FAILURES_PER_EMAIL_AND_ADDRESS },
    { throttle: failures(), key: addressKey, limit: MAX_FAILURES_PER_ADDRESS },
  ]);
  if (throttled > 0) return "throttled";
  const user = await db.user.findUnique({ where: { email: emailKey } });
  const stored = user?.passwordHash ?? (await (dummyHash ??= hashPassword("not-a-real-password")));
  const matches = await verifyPassword(password, stored);
  if (user?.passwordHash && user.disabledAt && matches && (await awaitsApproval(db, user.id))) return AWAITING_APPROVAL;
  if (!user?.passwordHash || user.disabledAt || !matches) {
    await Promise.all([failures().record(pairKey), failures().record(addressKey)]);
    return null;
  }
  await failures().clear(pairKey);
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

/** A disabled account whose sign-up an admin has not decided yet, as opposed to one an admin disabled. */
async function awaitsApproval(db: DbClient, userId: string): Promise<boolean> {
  const request = await db.accessRequest.findFirst({ where: { requesterId: userId, topic: "ACCOUNT", status: "PENDING" }, select: { id: true } });
  return request !== null;
}

/** Finds the user behind a Global SSO subject, linking by email or creating a developer on first sign-in. */
export async function linkSsoUser(input: { db: DbClient; subject: string; email: string | undefined | null; name: string | undefined | null }) {
  const { db, subject, email, name } = input;
  const linked = await db.user.findUnique({ where: { ssoSubject: subject } });
  if (linked) return linked.disabledAt ? null : linked;
  if (!email) return null;
  const byEmail = await db.user.findUnique({ where: { email: email.toLowerCase() } });
  if (byEmail) {
    if (byEmail.disabledAt) return null;
    return db.user.update({ where: { id: byEmail.id }, data: { ssoSubject: subject } });
  }
  return db.user.create({
    data: { id: newId("usr"), email: email.toLowerCase(), name: name || email, ssoSubject: subject, role: "DEVELOPER" },
  });
}
