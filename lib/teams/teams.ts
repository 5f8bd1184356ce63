import "server-only";
import { z } from "zod";
import { type Actor, recordAudit } from "../audit/write-audit";
import { isUniqueViolation } from "../database/unique-violation";
import { type DbClient, inTransaction, type TeamRole, type Tx } from "../db";
import { parseBody, problem, validationProblem } from "../http/problem";
import { newId } from "../ids";
import { TEAM_ROLES } from "./team-roles";

/** Applications created without an owner (by the CLI or an administrator) belong to this team, which has no members. */
export const UNASSIGNED_TEAM = { id: "team_unassigned", name: "Unassigned" } as const;

/** A user's personal team has a fixed id, so it is found without a search and made at most once. */
export function personalTeamId(userId: string): string {
  return `team_personal_${userId}`;
}

export const teamNameSchema = z
  .string()
  .trim()
  .min(1, "Name the team")
  .max(100, "Keep the name under 100 characters")
  .refine((name) => !name.includes("@"), { message: "Team names cannot contain @: personal teams are named after their owner's email" })
  .refine((name) => name.toLowerCase() !== UNASSIGNED_TEAM.name.toLowerCase(), { message: `"${UNASSIGNED_TEAM.name}" is reserved` });

export const newTeamSchema = z.strictObject({ name: teamNameSchema });
export const teamRoleSchema = z.enum(TEAM_ROLES, { message: "Choose owner, admin or member" });
export const changeRoleSchema = z.strictObject({ role: teamRoleSchema });

export function teamNotFound(team: string): Error {
  return problem("not-found", { detail: `There is no team "${team}".` });
}

/**
 * Writes the team's row first, which locks it until the transaction ends (PostgreSQL's row
 * lock, SQLite's write lock): concurrent membership changes take turns, so two owners demoting
 * each other cannot both see the other one still an owner.
 */
export async function lockTeam(tx: Tx, teamId: string, authorize?: Authorize): Promise<void> {
  const { count } = await tx.team.updateMany({ where: { id: teamId }, data: { updatedAt: new Date() } });
  if (count === 0) throw teamNotFound(teamId);
  await authorize?.(tx);
}

/** A check of the acting user's role, run after the team's row is locked, so a role changed meanwhile is the one checked. */
export type Authorize = (db: DbClient) => Promise<unknown>;

async function assertOwnerRemains(tx: Tx, teamId: string): Promise<void> {
  const owners = await tx.teamMember.count({ where: { teamId, role: "owner" } });
  if (owners === 0) throw problem("last-team-owner", { detail: "The team would have no owner left: make another member an owner first." });
}

async function insertTeam(tx: Tx, actor: Actor, team: { id: string; name: string; personal: boolean }, ownerId: string | null) {
  const created = await tx.team.create({ data: team });
  if (ownerId) await tx.teamMember.create({ data: { teamId: team.id, userId: ownerId, role: "owner" } });
  await recordAudit(tx, actor, {
    action: "team.create",
    targetType: "team",
    targetId: team.id,
    details: { name: team.name, personal: team.personal, ownerId },
  });
  return created;
}

function nameTaken(): Error {
  return validationProblem([{ in: "body", field: "name", message: "A team with this name exists" }]);
}

export async function createTeam(input: { db: DbClient; actor: Actor; ownerId: string; input: unknown }) {
  const { name } = parseBody(newTeamSchema, input.input);
  try {
    return await inTransaction(input.db, (tx) => insertTeam(tx, input.actor, { id: newId("team"), name, personal: false }, input.ownerId));
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

/**
 * The user's personal team, made with them as its owner when missing. It is named after their
 * email, which no other team name can be (team names contain no @); should an email have moved
 * to another account, the user id keeps the name unique.
 */
export async function ensurePersonalTeam(input: { db: DbClient; actor: Actor; user: { id: string; email: string } }) {
  const { db, actor, user } = input;
  const id = personalTeamId(user.id);
  const existing = await db.team.findUnique({ where: { id } });
  if (existing) return existing;
  for (const name of [user.email, `${user.email} (${user.id})`]) {
    try {
      return await inTransaction(db, (tx) => insertTeam(tx, actor, { id, name, personal: true }, user.id));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const raced = await db.team.findUnique({ where: { id } });
      if (raced) return raced;
    }
  }
  throw nameTaken();
}

/** The members-less team of applications without an owner, made when first needed. */
export async function ensureUnassignedTeam(input: { db: DbClient; actor: Actor }) {
  const existing = await input.db.team.findUnique({ where: { id: UNASSIGNED_TEAM.id } });
  if (existing) return existing;
  try {
    return await inTransaction(input.db, (tx) => insertTeam(tx, input.actor, { ...UNASSIGNED_TEAM, personal: false }, null));
  } catch (error) {
    const raced = isUniqueViolation(error) ? await input.db.team.findUnique({ where: { id: UNASSIGNED_TEAM.id } }) : null;
    if (!raced) throw error;
    return raced;
  }
}

/** Removes a member; refused when it would leave the team without an owner. */
export async function removeMember(input: {
  db: DbClient;
  actor: Actor;
  teamId: string;
  userId: string;
  action?: "team.member.remove" | "team.member.leave";
  authorize?: Authorize;
}) {
  const { teamId, userId } = input;
  await inTransaction(input.db, async (tx) => {
    await lockTeam(tx, teamId, input.authorize);
    const { count } = await tx.teamMember.deleteMany({ where: { teamId, userId } });
    if (count === 0) throw problem("not-found", { detail: "That user is not a member of the team." });
    await assertOwnerRemains(tx, teamId);
    await recordAudit(tx, input.actor, { action: input.action ?? "team.member.remove", targetType: "team", targetId: teamId, details: { userId } });
  });
}

/** Gives a member another role; refused when it would leave the team without an owner. */
export async function changeRole(input: { db: DbClient; actor: Actor; teamId: string; userId: string; role: TeamRole; authorize?: Authorize }) {
  const { teamId, userId, role } = input;
  await inTransaction(input.db, async (tx) => {
    await lockTeam(tx, teamId, input.authorize);
    const { count } = await tx.teamMember.updateMany({ where: { teamId, userId }, data: { role } });
    if (count === 0) throw problem("not-found", { detail: "That user is not a member of the team." });
    await assertOwnerRemains(tx, teamId);
    await recordAudit(tx, input.actor, { action: "team.member.role", targetType: "team", targetId: teamId, details: { userId, role } });
  });
}

/** Deletes a team that owns no applications; its members and invitations go with it. */
export async function deleteTeam(input: { db: DbClient; actor: Actor; teamId: string; authorize?: Authorize }) {
  const { teamId } = input;
  await inTransaction(input.db, async (tx) => {
    await lockTeam(tx, teamId, input.authorize);
    const applications = await tx.application.count({ where: { teamId } });
    if (applications > 0) {
      throw problem("team-has-applications", { detail: `The team owns ${applications} application${applications === 1 ? "" : "s"}.` });
    }
    const team = await tx.team.delete({ where: { id: teamId } });
    await recordAudit(tx, input.actor, { action: "team.delete", targetType: "team", targetId: teamId, details: { name: team.name } });
  });
}
