import "server-only";
import type { PortalUser } from "../actors/portal-user";
import type { DbClient } from "../db";
import { teamApplicationsOf } from "../teams/team-access";

const REQUEST_INCLUDE = {
  api: { select: { slug: true, name: true } },
  environment: { select: { slug: true, name: true } },
  credential: { select: { clientId: true, application: { select: { team: { select: { id: true, name: true } } } } } },
} as const;

/** The requests a signed-in user sent and those that provisioned a credential of one of their teams, newest first. */
export async function myAccessRequests({ db, user }: { db: DbClient; user: PortalUser }) {
  return db.accessRequest.findMany({
    where: { OR: [{ requesterId: user.id }, { credential: { application: teamApplicationsOf(user.id) } }] },
    include: REQUEST_INCLUDE,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
}

/** For admins: requests of one status, oldest first, as a queue. */
export async function accessRequestQueue({ db, status }: { db: DbClient; status: "PENDING" | "APPROVED" | "REJECTED" }) {
  return db.accessRequest.findMany({
    where: { status },
    include: { ...REQUEST_INCLUDE, decidedBy: { select: { email: true } } },
    orderBy: [{ createdAt: status === "PENDING" ? "asc" : "desc" }, { id: "asc" }],
    take: 200,
  });
}
