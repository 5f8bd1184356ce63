import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Actor } from "../audit/write-audit";
import { recordAudit } from "../audit/write-audit";
import { config } from "../config";
import { type DbClient, inTransaction, type Role } from "../db";
import { problem, zodProblem } from "../http/problem";
import { newId } from "../ids";
import { hashClientSecret, secretHint } from "../oauth/client-secrets";
import { ACCESS_TOKEN_SCOPES, ADMIN_SCOPES, type AccessTokenScope, isAccessTokenScope, MAX_ACCESS_TOKEN_DAYS } from "./scopes";

/** `gpat_` + 43 base64url characters (256 random bits): secret scanners look for the prefix. */
export const ACCESS_TOKEN_PATTERN = /^gpat_[A-Za-z0-9_-]{43}$/;

function generateAccessToken(): string {
  return `gpat_${randomBytes(32).toString("base64url")}`;
}

export function hashAccessToken(token: string): string {
  return hashClientSecret(token, config().authSecret);
}

export const newAccessTokenSchema = z.strictObject({
  name: z.string().trim().min(1, "Name the token").max(100, "Keep the name under 100 characters"),
  scopes: z
    .array(z.string())
    .min(1, "Choose at least one scope")
    .refine((scopes) => scopes.every(isAccessTokenScope), { message: `Scopes are ${Object.keys(ACCESS_TOKEN_SCOPES).join(", ")}` }),
  expiresInDays: z.coerce
    .number()
    .int("Choose whole days")
    .min(1, `Choose 1 to ${MAX_ACCESS_TOKEN_DAYS} days`)
    .max(MAX_ACCESS_TOKEN_DAYS, `A token lives at most ${MAX_ACCESS_TOKEN_DAYS} days`),
});

export type AccessTokenOwner = { id: string; role: Role };

export type AccessTokenSummary = {
  id: string;
  name: string;
  hint: string;
  scopes: AccessTokenScope[];
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

const SUMMARY_SELECT = { id: true, name: true, hint: true, scopes: true, createdAt: true, expiresAt: true, lastUsedAt: true, revokedAt: true } as const;

function parseScopes(text: string): AccessTokenScope[] {
  return text.split(" ").filter(isAccessTokenScope);
}

function summarize(row: { scopes: string } & Omit<AccessTokenSummary, "scopes">): AccessTokenSummary {
  return { ...row, scopes: parseScopes(row.scopes) };
}

/** The plaintext token is returned once, here, and stored nowhere. */
export async function createAccessToken(input: {
  db: DbClient;
  actor: Actor;
  owner: AccessTokenOwner;
  input: unknown;
}): Promise<{ token: string; accessToken: AccessTokenSummary }> {
  const { db, actor, owner } = input;
  const parsed = newAccessTokenSchema.safeParse(input.input ?? {});
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const scopes = [...new Set(parsed.data.scopes as AccessTokenScope[])];
  if (owner.role !== "ADMIN" && scopes.some((scope) => ADMIN_SCOPES.includes(scope))) {
    throw problem("forbidden", {
      detail: "Only administrators can create tokens with admin scopes.",
      errors: [{ in: "body", field: "scopes", message: "admin scopes need the ADMIN role" }],
    });
  }
  const token = generateAccessToken();
  const id = newId("pat");
  const expiresAt = new Date(Date.now() + parsed.data.expiresInDays * 24 * 60 * 60 * 1000);
  const row = await inTransaction(db, async (tx) => {
    const created = await tx.accessToken.create({
      data: { id, userId: owner.id, name: parsed.data.name, scopes: scopes.join(" "), hash: hashAccessToken(token), hint: secretHint(token), expiresAt },
      select: SUMMARY_SELECT,
    });
    await recordAudit(tx, actor, {
      action: "access-token.create",
      targetType: "access-token",
      targetId: id,
      details: { name: parsed.data.name, scopes, expiresAt: expiresAt.toISOString(), userId: owner.id },
    });
    return created;
  });
  return { token, accessToken: summarize(row) };
}

/** The user's tokens, revoked and expired ones too, newest first. */
export async function listAccessTokens({ db, userId }: { db: DbClient; userId: string }): Promise<AccessTokenSummary[]> {
  if (!userId) return [];
  const rows = await db.accessToken.findMany({ where: { userId }, select: SUMMARY_SELECT, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  return rows.map(summarize);
}

/** Revokes the token; with `userId`, another user's token answers 404 like a missing one. */
export async function revokeAccessToken(input: { db: DbClient; actor: Actor; id: string; userId?: string }): Promise<AccessTokenSummary> {
  const { db, actor, id } = input;
  const row = await db.accessToken.findUnique({ where: { id }, select: { ...SUMMARY_SELECT, userId: true } });
  if (!row || (input.userId !== undefined && row.userId !== input.userId)) throw problem("not-found", { detail: `There is no access token "${id}".` });
  if (row.revokedAt) return summarize(row);
  return inTransaction(db, async (tx) => {
    const revoked = await tx.accessToken.update({ where: { id }, data: { revokedAt: new Date() }, select: SUMMARY_SELECT });
    await recordAudit(tx, actor, { action: "access-token.revoke", targetType: "access-token", targetId: id, details: { userId: row.userId } });
    return summarize(revoked);
  });
}
