import "server-only";
import type { PortalUser } from "../actors/portal-user";
import type { Db } from "../db";
import { teamApplicationsOf } from "../teams/team-access";
import { parseValidationErrors, type ValidationFailureError } from "./validation-failures";

/** The credentials of the user's teams, each with its team, application and environment: the only clients whose requests they may see. */
export async function myClients(db: Db, user: PortalUser) {
  if (!user.id) return [];
  const credentials = await db.credential.findMany({
    where: { application: teamApplicationsOf(user.id) },
    select: { clientId: true, application: { select: { name: true, team: { select: { name: true } } } }, environment: { select: { slug: true, name: true } } },
    orderBy: [{ application: { name: "asc" } }, { createdAt: "asc" }],
  });
  return credentials.map((credential) => ({
    clientId: credential.clientId,
    application: credential.application.name,
    team: credential.application.team.name,
    environment: credential.environment.slug,
    environmentName: credential.environment.name,
  }));
}

export type RequestLookup = {
  requestId: string;
  at: Date;
  environment: string;
  api: string;
  method: string;
  route: string;
  status: number;
  latencyMs: number;
  clientId: string;
  /** the problem type the gateway answered with; null for successes and upstream answers */
  problem: string | null;
  /** why the call failed request validation, when `report` forwarded it anyway; null otherwise */
  validationErrors: ValidationFailureError[] | null;
};

/**
 * One of the user's own requests by its request id. Anyone else's request, an
 * anonymous one and an unknown id all answer null, so the lookup tells nothing
 * about other clients. Rolled-up requests are gone: only raw rows are found.
 */
export async function findMyRequest(db: Db, user: PortalUser, requestId: string): Promise<RequestLookup | null> {
  const id = requestId.trim();
  if (id === "" || id.length > 200) return null;
  const clientIds = (await myClients(db, user)).map((client) => client.clientId);
  if (clientIds.length === 0) return null;
  const row = await db.requestLog.findFirst({
    where: { requestId: id, clientId: { in: clientIds } },
    select: {
      requestId: true,
      at: true,
      environment: true,
      api: true,
      method: true,
      route: true,
      status: true,
      latencyMs: true,
      clientId: true,
      problem: true,
      validationErrors: true,
    },
  });
  if (!row?.clientId) return null;
  return { ...row, clientId: row.clientId, validationErrors: row.validationErrors === null ? null : parseValidationErrors(row.validationErrors) };
}
