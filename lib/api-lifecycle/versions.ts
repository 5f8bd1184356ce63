import "server-only";
import { type Actor, recordAudit } from "../audit/write-audit";
import { type Db, type DbClient, inTransaction, type Tx } from "../db";
import { problem, validationProblem } from "../http/problem";
import { newId } from "../ids";
import { recordEvent } from "../events/record-event";
import { sendDeprecationNotices } from "./deprecation-notices";
import type { DeprecationSubject } from "./deprecation-usage";
import { type VersionStatus, versionNameSchema } from "./versions-schema";

export type ChangelogEntry = { version: string; date: string; notes: string };

/** One version as a caller sets it (configuration file, CLI, console); the document is validated JSON text. */
export type VersionSpec = {
  version: string;
  status: VersionStatus;
  openapiDocument: string | null;
  deprecatedAt?: Date | null;
  sunsetAt?: Date | null;
  /** left out: a new version starts with none, a version kept keeps its own */
  changelog?: ChangelogEntry[];
};

/** `GET /v1/orders/{id}`: a method and the document's path template. */
export function parseOperation(text: string): { method: string; path: string } | undefined {
  const match = /^([A-Za-z]+)\s+(\/\S*)$/.exec(text.trim());
  return match ? { method: match[1]!.toUpperCase(), path: match[2]! } : undefined;
}

/** v1 < v2 < v10. */
export function compareVersions(a: { version: string }, b: { version: string }): number {
  return a.version.localeCompare(b.version, "en", { numeric: true });
}

/** An API's versions, oldest first, each with its deprecated operations. */
export async function listVersions(db: DbClient, apiId: string) {
  const versions = await db.apiVersion.findMany({ where: { apiId }, include: { operationDeprecations: { orderBy: [{ path: "asc" }, { method: "asc" }] } } });
  return versions.sort(compareVersions);
}

export type ListedVersion = Awaited<ReturnType<typeof listVersions>>[number];

/** The version a reader is shown when they name none: the current one, else the newest. */
export function defaultVersion<T extends { version: string; status: string }>(versions: readonly T[]): T | undefined {
  return versions.find((version) => version.status === "current") ?? versions.at(-1);
}

/** The `info.version` of a document, which the catalog shows as the API's version. */
export function documentLabel(document: string | null): string | undefined {
  if (!document) return undefined;
  const info = (JSON.parse(document) as { info?: { version?: unknown } }).info;
  return typeof info?.version === "string" ? info.version : undefined;
}

/**
 * The API's own document and version label follow its current version's, so the catalog,
 * search and the API's edit form, which read the API, show the current version.
 */
async function followCurrent(tx: Tx, apiId: string): Promise<void> {
  const [api, current] = await Promise.all([
    tx.api.findUniqueOrThrow({ where: { id: apiId }, select: { kind: true } }),
    tx.apiVersion.findFirst({ where: { apiId, status: "current" } }),
  ]);
  if (!current || api.kind !== "PROXY") return;
  const label = documentLabel(current.openapiDocument);
  await tx.api.update({ where: { id: apiId }, data: { openapiDocument: current.openapiDocument, ...(label ? { version: label } : {}) } });
}

/** The `api.deprecated` event of a version or one of its operations, in the transaction that deprecates it (lib/events). */
async function recordDeprecated(tx: Tx, apiId: string, deprecated: { version: string; operation?: string; sunsetAt: Date | null }): Promise<void> {
  const api = await tx.api.findUniqueOrThrow({ where: { id: apiId }, select: { slug: true, name: true } });
  await recordEvent(tx, "api.deprecated", {
    api: api.slug,
    apiName: api.name,
    version: deprecated.version,
    operation: deprecated.operation ?? null,
    sunsetAt: deprecated.sunsetAt?.toISOString() ?? null,
  });
}

/** At most one version is current: making one current deprecates the one that was, as of `now`. */
async function supersede(tx: Tx, apiId: string, keep: string, now: Date): Promise<{ id: string; version: string }[]> {
  const previous = await tx.apiVersion.findMany({ where: { apiId, status: "current", version: { not: keep } }, select: { id: true, version: true } });
  for (const row of previous) {
    await tx.apiVersion.update({ where: { id: row.id }, data: { status: "deprecated", deprecatedAt: now } });
    await recordDeprecated(tx, apiId, { version: row.version, sunsetAt: null });
  }
  return previous;
}

/** Tells the clients that called what was just deprecated, once per deprecation (decision 031); how many were told. */
export async function announceDeprecations(db: Db, subjects: readonly DeprecationSubject[]): Promise<number> {
  let told = 0;
  for (const subject of subjects) {
    const result = await sendDeprecationNotices(db, { subject });
    if (result.sent) told += result.clientCount;
  }
  return told;
}

/** The version a new API starts with, for a nested create: `v1`, current, holding the API's document and changelog. */
export function firstVersion(fields: { openapiDocument: string | null; changelog: ChangelogEntry[]; releasedAt?: Date | null }) {
  return { create: [{ id: newId("apv"), version: "v1", status: "current" as const, ...fields }] };
}

/** The API's current version takes the document saved through the API's own form. */
export async function setCurrentDocument(tx: Tx, apiId: string, openapiDocument: string | null): Promise<void> {
  await tx.apiVersion.updateMany({ where: { apiId, status: "current" }, data: { openapiDocument } });
}

async function apiBySlug(db: DbClient, slug: string) {
  const api = await db.api.findUnique({ where: { slug }, select: { id: true, slug: true, kind: true } });
  if (!api) throw problem("not-found", { detail: `There is no API "${slug}".` });
  return api;
}

async function versionOf(db: DbClient, slug: string, version: string) {
  const api = await apiBySlug(db, slug);
  const row = await db.apiVersion.findUnique({ where: { apiId_version: { apiId: api.id, version } } });
  if (!row) throw problem("not-found", { detail: `The API "${slug}" has no version "${version}".` });
  return { api, row };
}

function checkDates(deprecatedAt: Date | null | undefined, sunsetAt: Date | null | undefined): void {
  if (deprecatedAt && sunsetAt && sunsetAt <= deprecatedAt) {
    throw validationProblem([{ in: "body", field: "sunset", message: "The sunset must come after the deprecation date" }]);
  }
}

/** Adds a version with its document; a `current` one supersedes the version that was current. */
export async function addVersion(input: { db: Db; actor: Actor; slug: string; spec: VersionSpec; now?: Date }) {
  const { db, actor, slug, spec, now = new Date() } = input;
  const api = await apiBySlug(db, slug);
  if (api.kind !== "PROXY") throw validationProblem([{ in: "body", field: "api", message: `"${slug}" is built in; its versions come with Gatehouse` }]);
  const name = versionNameSchema.safeParse(spec.version);
  if (!name.success) throw validationProblem([{ in: "body", field: "version", message: name.error.issues[0]!.message }]);
  checkDates(spec.deprecatedAt, spec.sunsetAt);
  const added = await inTransaction(db, async (tx) => {
    if (await tx.apiVersion.findUnique({ where: { apiId_version: { apiId: api.id, version: spec.version } } })) {
      throw validationProblem([{ in: "body", field: "version", message: `"${slug}" already has a version ${spec.version}` }]);
    }
    const deprecatedAt = spec.status === "deprecated" ? (spec.deprecatedAt ?? now) : (spec.deprecatedAt ?? null);
    const created = await tx.apiVersion.create({
      data: {
        id: newId("apv"),
        apiId: api.id,
        version: spec.version,
        status: spec.status,
        openapiDocument: spec.openapiDocument,
        changelog: spec.changelog ?? [
          {
            version: documentLabel(spec.openapiDocument) ?? spec.version,
            date: now.toISOString().slice(0, 10),
            notes: `${spec.version} released${spec.status === "beta" ? " as a beta" : ""}.`,
          },
        ],
        releasedAt: spec.status === "beta" ? null : now,
        deprecatedAt,
        sunsetAt: spec.sunsetAt ?? null,
      },
    });
    const superseded = spec.status === "current" ? await supersede(tx, api.id, spec.version, now) : [];
    await followCurrent(tx, api.id);
    await recordAudit(tx, actor, {
      action: "api.version.add",
      targetType: "api",
      targetId: slug,
      details: { version: spec.version, status: spec.status, superseded: superseded.map((row) => row.version) },
    });
    return { created, superseded };
  });
  const notified = await announceDeprecations(
    db,
    added.superseded.map((row) => ({ kind: "version", id: row.id })),
  );
  return { slug, version: added.created.version, status: added.created.status, superseded: added.superseded.map((row) => row.version), notified };
}

/**
 * Marks a whole version deprecated, or one operation of it (`GET /v1/orders/{id}`, which its
 * document must declare), from `deprecatedAt`, optionally with a sunset. Without `deprecatedAt`,
 * what is already deprecated keeps its date, so setting a sunset later does not move it; the rest
 * is deprecated as of now.
 */
export async function deprecate(input: {
  db: Db;
  actor: Actor;
  slug: string;
  version: string;
  operation?: string;
  deprecatedAt?: Date;
  sunsetAt?: Date | null;
  now?: Date;
}) {
  const { db, actor, slug, version, operation, now = new Date() } = input;
  const sunsetAt = input.sunsetAt ?? null;
  const { row } = await versionOf(db, slug, version);
  if (row.status === "retired") throw validationProblem([{ in: "body", field: "version", message: `${version} of "${slug}" is already retired` }]);
  if (operation === undefined) {
    const deprecatedAt = input.deprecatedAt ?? (row.status === "deprecated" ? row.deprecatedAt : null) ?? now;
    checkDates(deprecatedAt, sunsetAt);
    await inTransaction(db, async (tx) => {
      await tx.apiVersion.update({ where: { id: row.id }, data: { status: "deprecated", deprecatedAt, sunsetAt } });
      await followCurrent(tx, row.apiId);
      await recordDeprecated(tx, row.apiId, { version, sunsetAt });
      await recordAudit(tx, actor, { action: "api.version.deprecate", targetType: "api", targetId: slug, details: { version, deprecatedAt, sunsetAt } });
    });
    const notified = await announceDeprecations(db, [{ kind: "version", id: row.id }]);
    return { slug, version, deprecatedAt, sunsetAt, notified };
  }
  const parsed = parseOperation(operation);
  if (!parsed)
    throw validationProblem([{ in: "body", field: "operation", message: 'Name the operation as METHOD and path template, e.g. "GET /v1/orders/{id}"' }]);
  const declared = declaredOperations(row.openapiDocument);
  if (declared && !declared.has(`${parsed.method} ${parsed.path}`)) {
    throw validationProblem([{ in: "body", field: "operation", message: `${version}'s document declares no ${parsed.method} ${parsed.path}` }]);
  }
  const key = { apiVersionId_method_path: { apiVersionId: row.id, ...parsed } };
  const already = await db.apiOperationDeprecation.findUnique({ where: key, select: { deprecatedAt: true } });
  const deprecatedAt = input.deprecatedAt ?? already?.deprecatedAt ?? now;
  checkDates(deprecatedAt, sunsetAt);
  const marked = await inTransaction(db, async (tx) => {
    const saved = await tx.apiOperationDeprecation.upsert({
      where: key,
      create: { id: newId("apd"), apiVersionId: row.id, ...parsed, deprecatedAt, sunsetAt },
      update: { deprecatedAt, sunsetAt },
    });
    await recordDeprecated(tx, row.apiId, { version, operation: `${parsed.method} ${parsed.path}`, sunsetAt });
    await recordAudit(tx, actor, {
      action: "api.operation.deprecate",
      targetType: "api",
      targetId: slug,
      details: { version, operation: `${parsed.method} ${parsed.path}`, deprecatedAt, sunsetAt },
    });
    return saved;
  });
  const notified = await announceDeprecations(db, [{ kind: "operation", id: marked.id }]);
  return { slug, version, operation: `${parsed.method} ${parsed.path}`, deprecatedAt, sunsetAt, notified };
}

/** Retires a version: from then on the gateway answers its calls 410 `api-version-retired`. */
export async function retire(input: { db: DbClient; actor: Actor; slug: string; version: string; now?: Date }) {
  const { db, actor, slug, version, now = new Date() } = input;
  const { row } = await versionOf(db, slug, version);
  return inTransaction(db, async (tx) => {
    await tx.apiVersion.update({ where: { id: row.id }, data: { status: "retired", deprecatedAt: row.deprecatedAt ?? now } });
    await recordAudit(tx, actor, { action: "api.version.retire", targetType: "api", targetId: slug, details: { version } });
    return { slug, version, status: "retired" as const };
  });
}

/**
 * Makes an API's versions those listed (the configuration file's `versions`): added, updated,
 * and the others deleted; the ids of the versions it made deprecated, whose clients are to be told.
 */
export async function replaceVersions(tx: Tx, apiId: string, specs: readonly VersionSpec[], now: Date): Promise<string[]> {
  await tx.apiVersion.deleteMany({ where: { apiId, version: { notIn: specs.map((spec) => spec.version) } } });
  const existing = new Map((await tx.apiVersion.findMany({ where: { apiId } })).map((row) => [row.version, row]));
  const deprecated: string[] = [];
  for (const spec of specs) {
    const was = existing.get(spec.version);
    const gone = spec.status === "deprecated" || spec.status === "retired";
    const fields = {
      status: spec.status,
      openapiDocument: spec.openapiDocument,
      // A file that gives no date keeps the one recorded, or records when it first said so.
      deprecatedAt: spec.deprecatedAt ?? (gone ? (was?.deprecatedAt ?? now) : null),
      sunsetAt: spec.sunsetAt ?? null,
      ...(spec.changelog ? { changelog: spec.changelog } : {}),
    };
    const saved = was
      ? await tx.apiVersion.update({ where: { id: was.id }, data: fields })
      : await tx.apiVersion.create({
          data: { id: newId("apv"), apiId, version: spec.version, changelog: [], releasedAt: spec.status === "beta" ? null : now, ...fields },
        });
    if (spec.status === "deprecated" && was?.status !== "deprecated") {
      deprecated.push(saved.id);
      await recordDeprecated(tx, apiId, { version: saved.version, sunsetAt: saved.sunsetAt });
    }
  }
  await followCurrent(tx, apiId);
  return deprecated;
}

/** `GET /v1/orders/{id}` for each operation the document declares; undefined without a document. */
export function declaredOperations(document: string | null): Set<string> | undefined {
  if (!document) return undefined;
  const paths = (JSON.parse(document) as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  const methods = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);
  return new Set(
    Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item ?? {})
        .filter((key) => methods.has(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    ),
  );
}
