import "server-only";
import { z } from "zod";
import type { Actor } from "../audit/write-audit";
import { recordAudit } from "../audit/write-audit";
import { config } from "../config";
import { type DbClient, inTransaction } from "../db";
import { problem, zodProblem } from "../http/problem";
import { newId } from "../ids";
import { generateApiKey } from "../oauth/api-key-format";
import { hashClientSecret, secretHint } from "../oauth/client-secrets";
import { requireTeamRole, teamApplicationsOf } from "../teams/team-access";

const HOUR_MS = 60 * 60 * 1000;
/** A roll's overlap: how long the old key keeps working beside the new one. */
export const DEFAULT_ROLL_OVERLAP_MS = 24 * HOUR_MS;
export const MAX_ROLL_OVERLAP_MS = 30 * 24 * HOUR_MS;

/**
 * Who asks: a signed-in user (portal, `/api/v1`), who sees the keys of their teams' applications,
 * reads them as a member and changes them as an admin; or the operator (the CLI), who sees all.
 */
export type ApiKeyViewer = { userId: string } | "operator";

export type ApiKeySummary = {
  id: string;
  hint: string;
  application: string;
  environment: string;
  clientId: string;
  state: "active" | "expired" | "revoked";
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
};

/** An API key as stored: an HMAC under a key derived from AUTH_SECRET, as personal access tokens and client secrets are. */
export function hashApiKey(key: string): string {
  return hashClientSecret(key, config().authSecret);
}

export const newApiKeySchema = z.strictObject({
  application: z.string().trim().min(1, "Name the application").max(100),
  environment: z.string().trim().min(1, "Name the environment").max(100),
  expiresAt: z.coerce.date().optional(),
});

/** `1h`, `30m`, `7d`, or a number of seconds. */
export const overlapSchema = z
  .union([
    z.int32().min(0).meta({ format: "int32" }),
    z
      .string()
      .max(20)
      .regex(/^\d+[smhd]?$/, "Give the overlap as 1h, 30m, 7d or seconds"),
  ])
  .transform((value) => {
    if (typeof value === "number") return value * 1000;
    const amount = Number.parseInt(value, 10);
    const unit = value.at(-1)!;
    return amount * ({ s: 1000, m: 60_000, h: HOUR_MS, d: 24 * HOUR_MS }[unit] ?? 1000);
  })
  .refine((ms) => ms <= MAX_ROLL_OVERLAP_MS, "The old key may keep working for at most 30 days");

export const rollApiKeySchema = z.strictObject({ overlap: overlapSchema.optional() });

export const revokeApiKeySchema = z.strictObject({
  /** revoking an application's last active key in an environment says so, or is refused */
  last: z.boolean().optional(),
});

const KEY_SELECT = {
  id: true,
  hint: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  lastUsedAt: true,
  credential: {
    select: {
      id: true,
      clientId: true,
      status: true,
      environment: { select: { slug: true } },
      application: { select: { name: true, teamId: true } },
    },
  },
} as const;

type KeyRow = {
  id: string;
  hint: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  credential: { id: string; clientId: string; status: string; environment: { slug: string }; application: { name: string; teamId: string } };
};

function stateOf(row: Pick<KeyRow, "expiresAt" | "revokedAt" | "credential">, now: Date): ApiKeySummary["state"] {
  if (row.revokedAt || row.credential.status !== "ACTIVE") return "revoked";
  return row.expiresAt && row.expiresAt <= now ? "expired" : "active";
}

function summarize(row: KeyRow, now = new Date()): ApiKeySummary {
  return {
    id: row.id,
    hint: row.hint,
    application: row.credential.application.name,
    environment: row.credential.environment.slug,
    clientId: row.credential.clientId,
    state: stateOf(row, now),
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
  };
}

function activeKeyFilter(now: Date) {
  return { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
}

/** The active credential of the application in the environment that the viewer may act on; a key is bound to it. */
async function credentialFor(db: DbClient, viewer: ApiKeyViewer, application: string, environment: string) {
  const notFound = () => problem("not-found", { detail: `The application "${application}" has no active credential in "${environment}"; create one first.` });
  const credentials = await db.credential.findMany({
    where: {
      status: "ACTIVE",
      environment: { slug: environment },
      application: viewer === "operator" ? { name: application } : { name: application, ...teamApplicationsOf(viewer.userId) },
    },
    select: { id: true, application: { select: { teamId: true } } },
  });
  if (credentials.length === 0) throw notFound();
  if (credentials.length > 1) {
    throw problem("validation-failed", {
      detail: `Several teams have an application "${application}"; manage its keys from the portal or /api/v1 as a member of its team.`,
    });
  }
  const credential = credentials[0]!;
  if (viewer !== "operator") await requireTeamRole({ db, teamId: credential.application.teamId, userId: viewer.userId, needed: "admin", notFound });
  return credential;
}

/** A key the viewer may see; another team's key answers exactly like a missing one. */
async function keyFor(db: DbClient, viewer: ApiKeyViewer, id: string, needed: "member" | "admin"): Promise<KeyRow> {
  const notFound = () => problem("not-found", { detail: `There is no API key "${id}".` });
  const row = await db.apiKey.findUnique({ where: { id }, select: KEY_SELECT });
  if (!row) throw notFound();
  if (viewer !== "operator") await requireTeamRole({ db, teamId: row.credential.application.teamId, userId: viewer.userId, needed, notFound });
  return row;
}

async function insertKey(tx: DbClient, credentialId: string, expiresAt: Date | null): Promise<{ key: string; row: KeyRow }> {
  const key = generateApiKey();
  const row = await tx.apiKey.create({
    data: { id: newId("key"), credentialId, hash: hashApiKey(key), hint: secretHint(key), expiresAt },
    select: KEY_SELECT,
  });
  return { key, row };
}

/** Creates a key of the application's credential in the environment; the key is returned once, here, and stored nowhere. */
export async function createApiKey(input: {
  db: DbClient;
  actor: Actor;
  viewer: ApiKeyViewer;
  input: unknown;
}): Promise<{ key: string; apiKey: ApiKeySummary }> {
  const { db, actor, viewer } = input;
  const parsed = newApiKeySchema.safeParse(input.input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const { application, environment, expiresAt } = parsed.data;
  if (expiresAt && expiresAt <= new Date()) {
    throw problem("validation-failed", { errors: [{ in: "body", field: "expiresAt", message: "must be in the future" }] });
  }
  const credential = await credentialFor(db, viewer, application, environment);
  const { key, row } = await inTransaction(db, async (tx) => {
    const created = await insertKey(tx, credential.id, expiresAt ?? null);
    await recordAudit(tx, actor, {
      action: "api-key.create",
      targetType: "api-key",
      targetId: created.row.id,
      details: { clientId: created.row.credential.clientId, hint: created.row.hint, expiresAt: expiresAt?.toISOString() ?? null },
    });
    return created;
  });
  return { key, apiKey: summarize(row) };
}

/** A new key for the same credential; the old one keeps working for `overlap` (24 h unless said, at most 30 days), or less if it ended sooner. */
export async function rollApiKey(input: {
  db: DbClient;
  actor: Actor;
  viewer: ApiKeyViewer;
  id: string;
  input: unknown;
}): Promise<{ key: string; apiKey: ApiKeySummary; previous: ApiKeySummary }> {
  const { db, actor, viewer, id } = input;
  const parsed = rollApiKeySchema.safeParse(input.input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const old = await keyFor(db, viewer, id, "admin");
  const now = new Date();
  if (stateOf(old, now) !== "active") throw problem("api-key-inactive", { detail: `The API key ${id} is ${stateOf(old, now)}; create a new one instead.` });
  const overlapUntil = new Date(now.getTime() + (parsed.data.overlap ?? DEFAULT_ROLL_OVERLAP_MS));
  const oldExpiresAt = old.expiresAt && old.expiresAt < overlapUntil ? old.expiresAt : overlapUntil;
  return inTransaction(db, async (tx) => {
    const { key, row } = await insertKey(tx, old.credential.id, null);
    const previous = await tx.apiKey.update({ where: { id }, data: { expiresAt: oldExpiresAt }, select: KEY_SELECT });
    await recordAudit(tx, actor, {
      action: "api-key.roll",
      targetType: "api-key",
      targetId: id,
      details: { clientId: old.credential.clientId, newKeyId: row.id, previousValidUntil: oldExpiresAt.toISOString() },
    });
    return { key, apiKey: summarize(row, now), previous: summarize(previous, now) };
  });
}

/**
 * Revokes a key at once. An application keeps at least one active key in an environment unless
 * its revoker says `last`; a leaked key is revoked without asking (`revokeLeakedApiKeys`).
 */
export async function revokeApiKey(input: { db: DbClient; actor: Actor; viewer: ApiKeyViewer; id: string; input?: unknown }): Promise<ApiKeySummary> {
  const { db, actor, viewer, id } = input;
  const parsed = revokeApiKeySchema.safeParse(input.input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const row = await keyFor(db, viewer, id, "admin");
  if (row.revokedAt) return summarize(row);
  const now = new Date();
  return inTransaction(db, async (tx) => {
    if (stateOf(row, now) === "active" && !parsed.data.last) {
      const others = await tx.apiKey.count({ where: { credentialId: row.credential.id, id: { not: id }, ...activeKeyFilter(now) } });
      if (others === 0) {
        throw problem("api-key-last", {
          detail: `The API key ${id} is the last active key of ${row.credential.application.name} in ${row.credential.environment.slug}; revoke it with last: true (CLI: --last) if its callers should stop.`,
        });
      }
    }
    const revoked = await tx.apiKey.update({ where: { id }, data: { revokedAt: now }, select: KEY_SELECT });
    await recordAudit(tx, actor, {
      action: "api-key.revoke",
      targetType: "api-key",
      targetId: id,
      details: { clientId: row.credential.clientId, hint: row.hint },
    });
    return summarize(revoked, now);
  });
}

/** The keys the viewer may see, revoked and expired ones too, newest first. */
export async function listApiKeys(input: { db: DbClient; viewer: ApiKeyViewer; environment?: string; application?: string }): Promise<ApiKeySummary[]> {
  const { db, viewer } = input;
  if (viewer !== "operator" && !viewer.userId) return [];
  const rows = await db.apiKey.findMany({
    where: {
      credential: {
        ...(input.environment ? { environment: { slug: input.environment } } : {}),
        application: { ...(input.application ? { name: input.application } : {}), ...(viewer === "operator" ? {} : teamApplicationsOf(viewer.userId)) },
      },
    },
    select: KEY_SELECT,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  const now = new Date();
  return rows.map((row) => summarize(row, now));
}
