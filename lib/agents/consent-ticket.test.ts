import { describe, expect, it } from "vitest";
import type { AgentAuthorization } from "./authorization-request";
import { CONSENT_TICKET_SECONDS, openConsentTicket, sealConsentTicket } from "./consent-ticket";

const SECRET = "a-test-secret-of-enough-length-for-hkdf";
const AUTHORIZATION: AgentAuthorization = {
  agentId: "agc_1",
  agentName: "Agent",
  environmentId: "env_1",
  envSlug: "sso-qa",
  apiId: "api_1",
  apiName: "Orders",
  resource: "http://127.0.0.1/mcp/sso-qa/orders",
  scopes: ["orders:read"],
  redirectUri: "http://127.0.0.1:8976/callback",
  codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  state: "s",
};

describe("consent tickets", () => {
  const now = new Date("2026-11-29T05:00:00Z");
  const ticket = sealConsentTicket({ userId: "usr_1", authorization: AUTHORIZATION, authSecret: SECRET, now });

  it("carry the checked request back for the user they were made for, until they expire", () => {
    expect(openConsentTicket({ ticket, userId: "usr_1", authSecret: SECRET, now })).toEqual(AUTHORIZATION);
    const later = new Date(now.getTime() + (CONSENT_TICKET_SECONDS + 1) * 1000);
    expect(openConsentTicket({ ticket, userId: "usr_1", authSecret: SECRET, now: later })).toBeUndefined();
  });

  it("are refused for another user, altered, or signed with another secret", () => {
    expect(openConsentTicket({ ticket, userId: "usr_2", authSecret: SECRET, now })).toBeUndefined();
    expect(openConsentTicket({ ticket, userId: "usr_1", authSecret: `${SECRET}x`, now })).toBeUndefined();
    const [payload, signature] = ticket.split(".") as [string, string];
    const altered = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), userId: "usr_2" })).toString("base64url");
    expect(openConsentTicket({ ticket: `${altered}.${signature}`, userId: "usr_2", authSecret: SECRET, now })).toBeUndefined();
    for (const broken of ["", "x", `${payload}.`, `${payload}.${signature}.x`]) {
      expect(openConsentTicket({ ticket: broken, userId: "usr_1", authSecret: SECRET, now })).toBeUndefined();
    }
  });
});
