import "server-only";
import { hkdfSync } from "node:crypto";

/**
 * Keys Gatehouse needs at rest (the client-secret pepper, the key that
 * encrypts signing keys) are derived from AUTH_SECRET, one per purpose, so
 * rotating nothing but AUTH_SECRET is enough to configure a deployment.
 */
export function deriveKey(authSecret: string, purpose: "client-secret-pepper" | "signing-key-encryption"): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret, "gatehouse", purpose, 32));
}
