import "server-only";
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

type Purpose =
  | "client-secret-pepper"
  | "signing-key-encryption"
  | "webhook-secret-encryption"
  | "invitation-link-encryption"
  | "dpop-nonce"
  | "agent-consent"
  | "mcp-session";

/**
 * Keys Gatehouse needs at rest (the client-secret pepper, the keys that
 * encrypt signing keys, webhook secrets and invitation links waiting in the outbox) are derived from AUTH_SECRET, one
 * per purpose, so rotating nothing but AUTH_SECRET is enough to configure a deployment.
 */
export function deriveKey(authSecret: string, purpose: Purpose): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret, "gatehouse", purpose, 32));
}

/** AES-256-GCM with the key derived for `purpose`: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function sealWithDerivedKey(plaintext: Buffer, authSecret: string, purpose: Purpose): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(authSecret, purpose), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return ["v1", ...[iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url"))].join(".");
}

export function unsealWithDerivedKey(sealed: string, authSecret: string, purpose: Purpose): Buffer {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || !ciphertext) throw new Error("unknown sealed encoding");
  const decipher = createDecipheriv("aes-256-gcm", deriveKey(authSecret, purpose), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]);
}
