import "server-only";
import { db } from "../db";
import { newId } from "../ids";
import { hashPassword, verifyPassword } from "../portal/passwords";
import { clientAddress, sharedThrottle } from "./throttle";

const FIFTEEN_MINUTES = 15 * 60 * 1000;
const failuresPerEmail = () => sharedThrottle("sign-in-email", 5, FIFTEEN_MINUTES);
const failuresPerAddress = () => sharedThrottle("sign-in-address", 30, FIFTEEN_MINUTES);

let dummyHash: Promise<string> | undefined;

export type SignedInUser = { id: string; email: string; name: string; role: string };

/**
 * Checks an email and password. Unknown emails cost the same scrypt work as
 * wrong passwords, so timing does not tell which accounts exist.
 */
export async function verifyPasswordSignIn(
  email: string,
  password: string,
  headers: Headers | Record<string, string | undefined>,
): Promise<SignedInUser | null | "throttled"> {
  const emailKey = email.toLowerCase();
  const addressKey = clientAddress(headers);
  if (failuresPerEmail().retryAfter(emailKey) > 0 || failuresPerAddress().retryAfter(addressKey) > 0) return "throttled";
  const user = await db().user.findUnique({ where: { email: emailKey } });
  const stored = user?.passwordHash ?? (await (dummyHash ??= hashPassword("not-a-real-password")));
  const matches = await verifyPassword(password, stored);
  if (!user || !user.passwordHash || user.disabledAt || !matches) {
    failuresPerEmail().record(emailKey);
    failuresPerAddress().record(addressKey);
    return null;
  }
  failuresPerEmail().clear(emailKey);
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

/** Finds the user behind a Global SSO subject, linking by email or creating a developer on first sign-in. */
export async function linkSsoUser(subject: string, email: string | undefined | null, name: string | undefined | null) {
  const linked = await db().user.findUnique({ where: { ssoSubject: subject } });
  if (linked) return linked.disabledAt ? null : linked;
  if (!email) return null;
  const byEmail = await db().user.findUnique({ where: { email: email.toLowerCase() } });
  if (byEmail) {
    if (byEmail.disabledAt) return null;
    return db().user.update({ where: { id: byEmail.id }, data: { ssoSubject: subject } });
  }
  return db().user.create({
    data: { id: newId("usr"), email: email.toLowerCase(), name: name || email, ssoSubject: subject, role: "DEVELOPER" },
  });
}
