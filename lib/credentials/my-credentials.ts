import "server-only";
import { z } from "zod";
import type { PortalUser } from "../actors/portal-user";
import { parseBody, problem } from "../http/problem";
import {
  type CredentialSummary,
  findCredential,
  issueSecret,
  listUserCredentials,
  MAX_ROTATION_GRACE_SECONDS,
  revokeCredential,
  rotateSecret,
  setCredentialDpop,
  trustIssuer,
} from "./credentials";
import { actorOf } from "../audit/portal-actor";
import { trustSchema } from "./client-keys";
import type { Actor } from "../audit/write-audit";
import type { DbClient, TeamRole } from "../db";
import { requireTeamRole, teamApplicationsOf } from "../teams/team-access";
import { checkFetchedUrl } from "./fetched-url";
import { expiresInDaysSchema, expiryFrom } from "./new-credential-schema";

export const rotateSchema = z.strictObject({
  graceHours: z.coerce
    .number()
    .int("Choose whole hours")
    .min(0, "Choose 0 to 24 hours")
    .max(MAX_ROTATION_GRACE_SECONDS / 3600, "The old secret may stay valid for at most 24 hours"),
  expiresInDays: expiresInDaysSchema,
});

export const firstSecretSchema = z.strictObject({ expiresInDays: expiresInDaysSchema });

export const credentialDpopSchema = z.strictObject({
  requireDpop: z.boolean().meta({ description: "Tokens of this credential only with a DPoP proof (RFC 9449), and bound to its key." }),
});

/** What the signed-in user's actions on a credential of one of their teams take. */
type OwnCredentialAction = { db: DbClient; user: PortalUser; clientId: string };

/**
 * A credential of an application of one of the user's teams, when their role there is at least
 * `needed` (reading: member; changing: admin). A credential of a team they are not in answers
 * exactly like a missing one; a role too low answers 403 `team-role-required`.
 */
export async function ownCredentialOrThrow({ db, user, clientId, needed = "member" }: OwnCredentialAction & { needed?: TeamRole }): Promise<CredentialSummary> {
  const notFound = () => problem("not-found", { detail: `There is no credential "${clientId}".` });
  const credential = user.id ? await findCredential({ db, clientId }) : null;
  if (!credential) throw notFound();
  await requireTeamRole({ db, teamId: credential.application.teamId, userId: user.id, needed, notFound });
  return credential;
}

/** The applications of the user's teams, each with its team, the user's role there and its credentials; applications without any are listed too. */
export async function myApplications({ db, user }: { db: DbClient; user: PortalUser }) {
  const [applications, credentials] = await Promise.all([
    db.application.findMany({
      where: teamApplicationsOf(user.id),
      orderBy: [{ team: { name: "asc" } }, { name: "asc" }],
      select: {
        id: true,
        name: true,
        description: true,
        team: { select: { id: true, name: true, personal: true, members: { where: { userId: user.id }, select: { role: true } } } },
      },
    }),
    listUserCredentials({ db, userId: user.id }),
  ]);
  return applications.map(({ team: { members, ...team }, ...application }) => ({
    ...application,
    team: { ...team, role: members[0]?.role ?? "member" },
    credentials: credentials.filter((credential) => credential.application.id === application.id),
  }));
}

export async function rotateMySecret({ db, user, clientId, input }: OwnCredentialAction & { input: unknown }) {
  const data = parseBody(rotateSchema, input);
  await ownCredentialOrThrow({ db, user, clientId, needed: "admin" });
  return rotateSecret({ db, actor: actorOf(user), clientId, graceSeconds: data.graceHours * 3600, expiresAt: expiryFrom(data.expiresInDays) });
}

export async function issueMyFirstSecret({ db, user, clientId, input }: OwnCredentialAction & { input: unknown }) {
  const data = parseBody(firstSecretSchema, input);
  await ownCredentialOrThrow({ db, user, clientId, needed: "admin" });
  return issueSecret({ db, actor: actorOf(user), clientId, expiresAt: expiryFrom(data.expiresInDays) });
}

export async function revokeMyCredential({ db, user, clientId, actor = actorOf(user) }: OwnCredentialAction & { actor?: Actor }) {
  await ownCredentialOrThrow({ db, user, clientId, needed: "admin" });
  return revokeCredential({ db, actor, clientId });
}

/** Turns DPoP on or off for a credential of one of the user's teams, where they are an admin. */
export async function setMyCredentialDpop({ db, user, clientId, input, actor = actorOf(user) }: OwnCredentialAction & { input: unknown; actor?: Actor }) {
  const { requireDpop } = parseBody(credentialDpopSchema, input);
  await ownCredentialOrThrow({ db, user, clientId, needed: "admin" });
  return setCredentialDpop({ db, actor, clientId, requireDpop });
}

/** Makes a credential of one of the user's teams, where they are an admin, trust an issuer; its secrets end. */
export async function trustMyIssuer({ db, user, clientId, input, actor = actorOf(user) }: OwnCredentialAction & { input: unknown; actor?: Actor }) {
  const trust = parseBody(trustSchema, input);
  await ownCredentialOrThrow({ db, user, clientId, needed: "admin" });
  await checkFetchedUrl(trust.issuer, "issuer");
  return trustIssuer({ db, actor, clientId, trust });
}
