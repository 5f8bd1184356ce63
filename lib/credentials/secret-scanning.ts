import "server-only";
import { createPublicKey, verify } from "node:crypto";
import { z } from "zod";
import { recordAudit, SYSTEM_ACTOR } from "../audit/write-audit";
import { config } from "../config";
import { type DbClient, inTransaction } from "../db";
import { recordEvent } from "../events/record-event";
import { problem, zodProblem } from "../http/problem";
import { isWellFormedApiKey } from "../oauth/api-key-format";
import { OutboundError, outboundJson } from "../outbound/outbound-request";
import { hashApiKey } from "./api-keys";

/** GitHub's secret scanning partner report: the tokens matching our pattern that it found in public. */
export const secretScanningReportSchema = z
  .array(
    z.object({
      token: z.string().max(1_000),
      type: z.string().max(200),
      url: z.string().max(4_000).optional(),
      source: z.string().max(200).optional(),
    }),
  )
  .max(1_000);

export type SecretScanningAnswer = { token_raw: string; token_type: string; label: "true_positive" | "false_positive" }[];

const publicKeysSchema = z.object({
  public_keys: z.array(z.object({ key_identifier: z.string(), key: z.string() })),
});

/** The published keys by identifier, read again when a report names one not among them, at most once a minute. */
let published: { url: string; keys: Map<string, string>; readAt: number } | undefined;
const REREAD_AFTER_MS = 60_000;

async function publicKey(identifier: string): Promise<string | undefined> {
  const { secretScanningKeysUrl: url, outboundAllowPrivate } = config();
  const known = published?.url === url ? published : undefined;
  if (known && (known.keys.has(identifier) || Date.now() - known.readAt < REREAD_AFTER_MS)) return known.keys.get(identifier);
  let body: Record<string, unknown>;
  try {
    body = await outboundJson(url, { allowPrivate: outboundAllowPrivate });
  } catch (error) {
    if (error instanceof OutboundError) throw problem("upstream-unavailable", { detail: `The secret scanning keys could not be read: ${error.message}.` });
    throw error;
  }
  const parsed = publicKeysSchema.safeParse(body);
  const keys = new Map(parsed.success ? parsed.data.public_keys.map((key) => [key.key_identifier, key.key]) : []);
  published = { url, keys, readAt: Date.now() };
  return keys.get(identifier);
}

/** Whether `signature` (base64 DER) is an ECDSA P-256 SHA-256 signature of `body` by the published key `identifier`. */
async function signedByGitHub(body: Buffer, identifier: string | null, signature: string | null): Promise<boolean> {
  if (!identifier || !signature || identifier.length > 200 || signature.length > 500) return false;
  const pem = await publicKey(identifier);
  if (!pem) return false;
  try {
    const key = createPublicKey(pem);
    if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") return false;
    return verify("sha256", body, key, Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
}

/**
 * A report from GitHub's secret scanning: its signature checked against the keys at
 * SECRET_SCANNING_KEYS_URL, then every reported `gk_` key that matches a stored one is revoked
 * at once, without the last-key rule, and `api_key.leaked` records where it was found. Each
 * token is labelled true_positive when it is one of our keys (revoked before or now), else
 * false_positive.
 */
export async function handleSecretScanningReport(input: {
  db: DbClient;
  body: Buffer;
  keyIdentifier: string | null;
  signature: string | null;
}): Promise<SecretScanningAnswer> {
  const { db, body } = input;
  if (!(await signedByGitHub(body, input.keyIdentifier, input.signature))) {
    throw problem("secret-scanning-signature-invalid", { detail: "The report's signature does not verify against the published secret scanning keys." });
  }
  let json: unknown;
  try {
    json = JSON.parse(body.toString("utf8"));
  } catch {
    throw problem("malformed-request", { detail: "The report is not JSON." });
  }
  const parsed = secretScanningReportSchema.safeParse(json);
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const answers: SecretScanningAnswer = [];
  for (const reported of parsed.data) {
    const found = isWellFormedApiKey(reported.token) ? await revokeLeakedKey(db, reported) : false;
    answers.push({ token_raw: reported.token, token_type: reported.type, label: found ? "true_positive" : "false_positive" });
  }
  return answers;
}

async function revokeLeakedKey(db: DbClient, reported: z.output<typeof secretScanningReportSchema>[number]): Promise<boolean> {
  const key = await db.apiKey.findUnique({
    where: { hash: hashApiKey(reported.token) },
    select: {
      id: true,
      hint: true,
      revokedAt: true,
      credential: { select: { clientId: true, environment: { select: { slug: true } }, application: { select: { name: true, ownerId: true } } } },
    },
  });
  if (!key) return false;
  if (key.revokedAt) return true;
  const { credential } = key;
  await inTransaction(db, async (tx) => {
    const revoked = await tx.apiKey.updateMany({ where: { id: key.id, revokedAt: null }, data: { revokedAt: new Date() } });
    if (revoked.count === 0) return;
    const where = { url: reported.url ?? null, source: reported.source ?? null };
    await recordAudit(tx, SYSTEM_ACTOR, {
      action: "api-key.leaked",
      targetType: "api-key",
      targetId: key.id,
      details: { clientId: credential.clientId, hint: key.hint, ...where },
    });
    await recordEvent(tx, "api_key.leaked", {
      clientId: credential.clientId,
      application: credential.application.name,
      environment: credential.environment.slug,
      ownerId: credential.application.ownerId,
      keyId: key.id,
      hint: key.hint,
      ...where,
    });
  });
  return true;
}
