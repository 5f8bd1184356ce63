import "server-only";
import { z } from "zod";
import type { PortalUser } from "../actors/portal-user";
import { config } from "../config";
import { type DbClient, inTransaction } from "../db";
import { parseBody, problem, validationProblem } from "../http/problem";
import { checkOutboundUrl, OutboundError } from "../outbound/outbound-request";
import {
  type CredentialSummary,
  createCredential,
  ensureApplication,
  findCredential,
  issueSecret,
  listUserCredentials,
  MAX_ROTATION_GRACE_SECONDS,
  revokeCredential,
  rotateSecret,
  trustIssuer,
} from "./credentials";
import { actorOf } from "../audit/portal-actor";
import { type ClientKeys, type Trust, trustSchema } from "./client-keys";
import type { Actor } from "../audit/write-audit";
import type { TeamRole } from "../db";
import { requireTeamRole, teamApplicationsOf } from "../teams/team-access";
import { ensurePersonalTeam } from "../teams/teams";

/** A secret that expires in this many days, or never. */
const expiresInDaysSchema = z.preprocess(
  (value) => (value === undefined || value === "" ? 0 : Number(value)),
  z.union([z.literal(0), z.literal(30), z.literal(90), z.literal(365)], { message: "Choose never, 30, 90 or 365 days" }),
);

const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

/** A JWKS as an object (the management API) or as JSON text (the portal's form). */
const jwksInputSchema = z.preprocess((value) => {
  const given = blankToUndefined(value);
  if (typeof given !== "string") return given;
  try {
    return JSON.parse(given);
  } catch {
    return given;
  }
}, z.record(z.string(), z.unknown(), { message: 'Paste a JSON Web Key Set, {"keys": [...]}' }).optional());

export const newCredentialSchema = z
  .strictObject({
    application: z.string().trim().min(1, "Name the application").max(100, "Keep the name under 100 characters"),
    environment: z.string().trim().min(1, "Choose an environment").max(100),
    expiresInDays: expiresInDaysSchema,
    /** the id of one of the user's teams where they are an admin; the personal team when absent */
    team: z.string().trim().max(100).optional(),
    jwks: jwksInputSchema,
    jwksUri: z.preprocess(blankToUndefined, z.string().trim().max(2048).optional()),
    trust: trustSchema.optional(),
  })
  .refine((input) => input.jwks === undefined || input.jwksUri === undefined, {
    message: "Give your public keys inline or by URL, not both",
    path: ["jwksUri"],
  })
  .refine((input) => input.trust === undefined || (input.jwks === undefined && input.jwksUri === undefined), {
    message: "Trust an issuer or give public keys, not both",
    path: ["trust"],
  });

function keysOf(input: { jwks?: Record<string, unknown>; jwksUri?: string; trust?: Trust }): ClientKeys | undefined {
  if (input.trust !== undefined) return { trust: input.trust };
  if (input.jwks !== undefined) return { jwks: input.jwks };
  if (input.jwksUri !== undefined) return { jwksUri: input.jwksUri };
  return undefined;
}

/**
 * Refuses a URL the server would fetch (a trusted issuer, a `jwks_uri`) that the outbound policy
 * forbids (https, public addresses, unless OUTBOUND_ALLOW_PRIVATE=1), naming `field`: a
 * developer's URL is checked when given, as a webhook's is; the operator's CLI and file are
 * checked when the URL is fetched.
 */
async function checkFetchedUrl(url: string, field: string): Promise<void> {
  await checkOutboundUrl(url, { allowPrivate: config().outboundAllowPrivate }).catch((error: unknown) => {
    throw error instanceof OutboundError ? validationProblem([{ in: "body", field, message: error.message }]) : error;
  });
}

export const rotateSchema = z.strictObject({
  graceHours: z.coerce
    .number()
    .int("Choose whole hours")
    .min(0, "Choose 0 to 24 hours")
    .max(MAX_ROTATION_GRACE_SECONDS / 3600, "The old secret may stay valid for at most 24 hours"),
  expiresInDays: expiresInDaysSchema,
});

export const firstSecretSchema = z.strictObject({ expiresInDays: expiresInDaysSchema });

function expiryFrom(days: number): Date | null {
  return days > 0 ? new Date(Date.now() + days * 24 * 60 * 60 * 1000) : null;
}

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

/**
 * The team a new credential's application goes to: the one chosen, else the user's personal team.
 * Either way the user must be an admin there, as for every change of a team's applications, so a
 * personal team shared before sharing was refused cannot take credentials for someone it removed.
 */
async function teamForNewApplication(db: DbClient, user: PortalUser, actor: Actor, chosen: string | undefined): Promise<string> {
  const teamId = chosen ?? (await ensurePersonalTeam({ db, actor, user })).id;
  const message = chosen ? "You are in no such team" : "You are no longer a member of your personal team: name a team";
  await requireTeamRole({ db, teamId, userId: user.id, needed: "admin", notFound: () => validationProblem([{ in: "body", field: "team", message }]) });
  return teamId;
}

/** Self-service only: environments that need approval go through Contact Us. */
/** `actor` names who acted when it is not the user in person, e.g. one of their access tokens. */
export async function createMyCredential({ db, user, input, actor = actorOf(user) }: { db: DbClient; user: PortalUser; input: unknown; actor?: Actor }) {
  const data = parseBody(newCredentialSchema, input);
  const environment = await db.environment.findUnique({ where: { slug: data.environment } });
  if (!environment) throw validationProblem([{ in: "body", field: "environment", message: "There is no such environment" }]);
  if (!environment.selfService) {
    throw problem("approval-required", {
      detail: `Credentials for ${environment.name} need an administrator's approval: ask through Contact Us.`,
      errors: [{ in: "body", field: "environment", message: `${environment.name} needs approval: ask through Contact Us` }],
    });
  }
  if (data.trust) await checkFetchedUrl(data.trust.issuer, "trust.issuer");
  if (data.jwksUri) await checkFetchedUrl(data.jwksUri, "jwksUri");
  return inTransaction(db, async (tx) => {
    const teamId = await teamForNewApplication(tx, user, actor, data.team);
    const application = await ensureApplication({ db: tx, actor, ownerId: user.id, teamId, name: data.application });
    return createCredential({
      db: tx,
      actor,
      applicationId: application.id,
      envSlug: environment.slug,
      secretExpiresAt: expiryFrom(data.expiresInDays),
      keys: keysOf(data),
    });
  });
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

/** Makes a credential of one of the user's teams, where they are an admin, trust an issuer; its secrets end. */
export async function trustMyIssuer({ db, user, clientId, input, actor = actorOf(user) }: OwnCredentialAction & { input: unknown; actor?: Actor }) {
  const trust = parseBody(trustSchema, input);
  await ownCredentialOrThrow({ db, user, clientId, needed: "admin" });
  await checkFetchedUrl(trust.issuer, "issuer");
  return trustIssuer({ db, actor, clientId, trust });
}
