import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import { sealWithDerivedKey, unsealWithDerivedKey } from "../oauth/derived-keys";

/** Standard Webhooks secrets are shown as `whsec_` and the base64 of their bytes. */
const SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;

export type WebhookSecret = { sealed: string; shown: string };

/** A secret's bytes, sealed for the database and in the form shown once to whoever made it. */
export function newWebhookSecret(authSecret: string): WebhookSecret {
  const bytes = randomBytes(SECRET_BYTES);
  return { sealed: sealWithDerivedKey(bytes, authSecret, "webhook-secret-encryption"), shown: `${SECRET_PREFIX}${bytes.toString("base64")}` };
}

export function unsealWebhookSecret(sealed: string, authSecret: string): Buffer {
  return unsealWithDerivedKey(sealed, authSecret, "webhook-secret-encryption");
}

/**
 * The `webhook-signature` header: `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`
 * under each secret, space-separated, so a receiver holding either secret of a rotation verifies.
 */
export function signatureHeader(input: { id: string; timestamp: number; body: string; secrets: readonly Buffer[] }): string {
  const content = `${input.id}.${input.timestamp}.${input.body}`;
  return input.secrets.map((secret) => `v1,${createHmac("sha256", secret).update(content).digest("base64")}`).join(" ");
}
