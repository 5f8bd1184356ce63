import "server-only";
import type { PortalUser } from "../actors/portal-user";
import type { Db } from "../db";
import { teamApplicationsOf } from "../teams/team-access";
import { myClients } from "../usage/my-usage";

/** One request of the user's own, as the request log recorded it. */
export type LoggedRequest = { at: Date; api: string; status: number };

export type NextStep = "get-credentials" | "first-call" | "watch-usage";

/** Where a signed-in developer stands on the way to a first call, from what the database records. */
export type DeveloperProgress = {
  /** active credentials, and the names of their environments in the order environments are listed */
  credentials: { count: number; environments: string[] };
  /** the APIs the active credentials are granted, each with its environment, in the order environments are listed, then oldest API first */
  callable: { api: string; env: string }[];
  /** the last call to a token endpoint with one of the user's client IDs */
  lastToken: LoggedRequest | null;
  /** the last call to any other API with one of the user's client IDs */
  lastCall: LoggedRequest | null;
  next: NextStep;
};

function nextStep(credentialCount: number, lastCall: LoggedRequest | null): NextStep {
  if (credentialCount === 0) return "get-credentials";
  return lastCall ? "watch-usage" : "first-call";
}

export async function developerProgress(db: Db, user: PortalUser): Promise<DeveloperProgress> {
  if (!user.id) throw new Error("developerProgress needs the user's id");
  const [active, clients, tokenApis] = await Promise.all([
    db.credential.findMany({
      where: { status: "ACTIVE", application: teamApplicationsOf(user.id) },
      select: {
        environment: { select: { slug: true, name: true, position: true } },
        grants: { select: { api: { select: { slug: true } } }, orderBy: { api: { createdAt: "asc" } } },
      },
    }),
    myClients(db, user),
    db.api.findMany({ where: { kind: "TOKEN" }, select: { slug: true } }),
  ]);
  const clientIds = clients.map((client) => client.clientId);
  const tokenSlugs = tokenApis.map((api) => api.slug);
  const lastRequest = (api: { in: string[] } | { notIn: string[] }) =>
    clientIds.length === 0
      ? null
      : db.requestLog.findFirst({
          where: { clientId: { in: clientIds }, api },
          select: { at: true, api: true, status: true },
          orderBy: { at: "desc" },
        });
  const [lastToken, lastCall] = await Promise.all([lastRequest({ in: tokenSlugs }), lastRequest({ notIn: tokenSlugs })]);
  const inEnvironmentOrder = active.sort((a, b) => a.environment.position - b.environment.position || a.environment.slug.localeCompare(b.environment.slug));
  const environments = new Map(inEnvironmentOrder.map(({ environment }) => [environment.slug, environment.name]));
  return {
    credentials: { count: active.length, environments: [...environments.values()] },
    callable: inEnvironmentOrder.flatMap(({ environment, grants }) => grants.map((grant) => ({ api: grant.api.slug, env: environment.slug }))),
    lastToken,
    lastCall,
    next: nextStep(active.length, lastCall),
  };
}
