import "server-only";
import { config } from "../config";
import { sealWithDerivedKey, unsealWithDerivedKey } from "../oauth/derived-keys";

/** An invitation's token as the outbox keeps it until the email is sent: encrypted, so the database never holds a usable link. */
export function sealInvitationToken(token: string): string {
  return sealWithDerivedKey(Buffer.from(token, "utf8"), config().authSecret, "invitation-link-encryption");
}

export function unsealInvitationToken(sealed: string): string {
  return unsealWithDerivedKey(sealed, config().authSecret, "invitation-link-encryption").toString("utf8");
}
