import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { deriveKey } from "../oauth/derived-keys";
import type { AgentAuthorization } from "./authorization-request";

/** How long the consent page's form stays valid. */
export const CONSENT_TICKET_SECONDS = 600;

type Ticket = { userId: string; expiresAt: number; authorization: AgentAuthorization };

function mac(payload: string, authSecret: string): Buffer {
  return createHmac("sha256", deriveKey(authSecret, "agent-consent")).update(payload).digest();
}

/**
 * The checked authorization request, signed and bound to the signed-in developer: the consent
 * form posts it back, so the answer can neither be forged from another site (it needs this
 * user's ticket) nor changed on the way (it needs the server's key).
 */
export function sealConsentTicket(input: { userId: string; authorization: AgentAuthorization; authSecret: string; now?: Date }): string {
  const ticket: Ticket = {
    userId: input.userId,
    expiresAt: Math.floor((input.now ?? new Date()).getTime() / 1000) + CONSENT_TICKET_SECONDS,
    authorization: input.authorization,
  };
  const payload = Buffer.from(JSON.stringify(ticket)).toString("base64url");
  return `${payload}.${mac(payload, input.authSecret).toString("base64url")}`;
}

/** The authorization a ticket carries, when it is this user's, unaltered and not expired. */
export function openConsentTicket(input: { ticket: string; userId: string; authSecret: string; now?: Date }): AgentAuthorization | undefined {
  const [payload, signature, ...rest] = input.ticket.split(".");
  if (!payload || !signature || rest.length > 0) return undefined;
  const expected = mac(payload, input.authSecret);
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const ticket = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Ticket;
  const now = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (ticket.userId !== input.userId || ticket.expiresAt < now) return undefined;
  return ticket.authorization;
}
