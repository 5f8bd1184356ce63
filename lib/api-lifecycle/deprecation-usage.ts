import "server-only";
import type { DbClient } from "../db";

const DAY_MS = 24 * 60 * 60 * 1000;

/** How far back "still calls it" looks, unless the caller says otherwise. */
export const DEFAULT_USAGE_DAYS = 30;

/** What a deprecation is about: a whole version, or one operation of a version. Its key is DeprecationNotice.subject. */
export type DeprecationSubject = { kind: "version"; id: string } | { kind: "operation"; id: string };

export function subjectKey(subject: DeprecationSubject): string {
  return `${subject.kind}:${subject.id}`;
}

export type Deprecation = {
  subject: DeprecationSubject;
  api: { id: string; slug: string; name: string };
  /** the version's gateway path segment, e.g. `v1` */
  version: string;
  /** null when the whole version is deprecated */
  operation: { method: string; path: string } | null;
  deprecatedAt: Date | null;
  /** an operation without its own sunset ends with its version */
  sunsetAt: Date | null;
};

/** "2026-11-19 12:30 UTC": the minute a call was made, as notices and pages name it. */
export function utcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "Orders API v1", or "DELETE /v2/orders/{id} of Orders API v2". */
export function deprecationName(deprecation: Deprecation): string {
  const version = `${deprecation.api.name} ${deprecation.version}`;
  return deprecation.operation ? `${deprecation.operation.method} ${deprecation.operation.path} of ${version}` : version;
}

export type OperationCalls = { method: string; route: string; count: number; lastCalledAt: Date };

/** One client's calls to what is deprecated, in one environment (clients are per environment). */
export type ClientCalls = { environment: string; clientId: string; count: number; lastCalledAt: Date; operations: OperationCalls[] };

const API = { select: { id: true, slug: true, name: true } } as const;

/** A deprecated version or operation as stored; null when there is no such row. */
export async function loadDeprecation(db: DbClient, subject: DeprecationSubject): Promise<Deprecation | null> {
  if (subject.kind === "version") {
    const version = await db.apiVersion.findUnique({ where: { id: subject.id }, include: { api: API } });
    return version && { subject, api: version.api, version: version.version, operation: null, deprecatedAt: version.deprecatedAt, sunsetAt: version.sunsetAt };
  }
  const operation = await db.apiOperationDeprecation.findUnique({ where: { id: subject.id }, include: { apiVersion: { include: { api: API } } } });
  return (
    operation && {
      subject,
      api: operation.apiVersion.api,
      version: operation.apiVersion.version,
      operation: { method: operation.method, path: operation.path },
      deprecatedAt: operation.deprecatedAt,
      sunsetAt: operation.sunsetAt ?? operation.apiVersion.sunsetAt,
    }
  );
}

/**
 * Every deprecated version and operation whose sunset has not passed, by API and version.
 * A version counts as deprecated from its status or its deprecation date, whichever was set.
 */
export async function activeDeprecations(db: DbClient, now = new Date()): Promise<Deprecation[]> {
  const notPast = { OR: [{ sunsetAt: null }, { sunsetAt: { gt: now } }] };
  const [versions, operations] = await Promise.all([
    db.apiVersion.findMany({
      where: { status: { not: "retired" }, OR: [{ status: "deprecated" }, { deprecatedAt: { not: null } }], AND: [notPast] },
      include: { api: API },
    }),
    db.apiOperationDeprecation.findMany({ where: { apiVersion: { status: { not: "retired" } } }, include: { apiVersion: { include: { api: API } } } }),
  ]);
  const all: Deprecation[] = [
    ...versions.map((version) => ({
      subject: { kind: "version" as const, id: version.id },
      api: version.api,
      version: version.version,
      operation: null,
      deprecatedAt: version.deprecatedAt,
      sunsetAt: version.sunsetAt,
    })),
    ...operations.map((operation) => ({
      subject: { kind: "operation" as const, id: operation.id },
      api: operation.apiVersion.api,
      version: operation.apiVersion.version,
      operation: { method: operation.method, path: operation.path },
      deprecatedAt: operation.deprecatedAt,
      sunsetAt: operation.sunsetAt ?? operation.apiVersion.sunsetAt,
    })),
  ];
  return all
    .filter((deprecation) => !deprecation.sunsetAt || deprecation.sunsetAt > now)
    .toSorted(
      (a, b) =>
        a.api.slug.localeCompare(b.api.slug) || a.version.localeCompare(b.version, "en", { numeric: true }) || (a.operation ? 1 : 0) - (b.operation ? 1 : 0),
    );
}

/**
 * Which recorded routes a deprecation covers. The request log records the template of the
 * version's document that a call matched, and a version's document declares its paths under
 * its gateway segment (`/v1/orders/{id}`): a version is every route under `/{version}/`, an
 * operation its method and template, taken under the segment when the template lacks it.
 */
function routeFilter(deprecation: Deprecation) {
  const { version, operation } = deprecation;
  if (!operation) return { OR: [{ route: { startsWith: `/${version}/` } }, { route: `/${version}` }] };
  const prefixed = operation.path.startsWith(`/${version}/`) ? operation.path : `/${version}${operation.path}`;
  return { method: operation.method, route: { in: [...new Set([operation.path, prefixed])] } };
}

type Options = { days?: number; now?: Date; clientIds?: readonly string[] };

/**
 * The clients that called what a deprecation covers in the last `days` (default 30), per
 * client and operation: how often and when last, most calls first. Recent calls come from the
 * request log; calls older than its retention from the hourly rollups, which keep the route:
 * an hour counts when it starts inside the window, and its calls' last time reads as that hour.
 * `clientIds` narrows it to those clients.
 */
export async function deprecationUsage(
  db: DbClient,
  deprecation: Deprecation,
  { days = DEFAULT_USAGE_DAYS, now = new Date(), clientIds }: Options = {},
): Promise<ClientCalls[]> {
  const since = new Date(now.getTime() - days * DAY_MS);
  const scope = { api: deprecation.api.slug, ...routeFilter(deprecation) };
  const [raw, hourly] = await Promise.all([
    db.requestLog.groupBy({
      by: ["environment", "clientId", "method", "route"],
      where: { ...scope, at: { gte: since, lte: now }, clientId: clientIds ? { in: [...clientIds] } : { not: null } },
      _count: { _all: true },
      _max: { at: true },
    }),
    db.requestLogHourly.groupBy({
      by: ["environment", "clientId", "method", "route"],
      where: { ...scope, hour: { gte: since, lte: now }, clientId: clientIds ? { in: [...clientIds] } : { not: "" } },
      _sum: { requests: true },
      _max: { hour: true },
    }),
  ]);
  const clients = new Map<string, ClientCalls>();
  const add = (row: { environment: string; clientId: string | null; method: string; route: string }, count: number, last: Date | null) => {
    if (!row.clientId || !last || count === 0) return;
    const key = JSON.stringify([row.environment, row.clientId]);
    let client = clients.get(key);
    if (!client) clients.set(key, (client = { environment: row.environment, clientId: row.clientId, count: 0, lastCalledAt: last, operations: [] }));
    client.count += count;
    if (last > client.lastCalledAt) client.lastCalledAt = last;
    const operation = client.operations.find((entry) => entry.method === row.method && entry.route === row.route);
    if (!operation) client.operations.push({ method: row.method, route: row.route, count, lastCalledAt: last });
    else {
      operation.count += count;
      if (last > operation.lastCalledAt) operation.lastCalledAt = last;
    }
  };
  for (const row of raw) add(row, row._count._all, row._max.at);
  for (const row of hourly) add(row, row._sum.requests ?? 0, row._max.hour);
  const byCalls = <T extends { count: number }>(a: T, b: T) => b.count - a.count;
  for (const client of clients.values()) client.operations.sort((a, b) => byCalls(a, b) || a.route.localeCompare(b.route) || a.method.localeCompare(b.method));
  return [...clients.values()].sort((a, b) => byCalls(a, b) || a.clientId.localeCompare(b.clientId));
}
