import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { deriveKey } from "./derived-keys";

/** `gsk_` + 43 base64url characters (256 random bits): secret scanners look for the prefix. */
export function generateClientSecret(): string {
  return `gsk_${randomBytes(32).toString("base64url")}`;
}

const CLIENT_ID_PATTERN = /^gci_[0-9a-f]{24}$/;

/** Whether a presented client id has the shape we issue; anything else may be a pasted secret and is never logged. */
export function isClientIdShaped(value: string): boolean {
  return CLIENT_ID_PATTERN.test(value);
}

/** `gci_` + 24 hex characters. */
export function generateClientId(): string {
  return `gci_${randomBytes(12).toString("hex")}`;
}

const peppers = new Map<string, Buffer>();

function pepperFor(authSecret: string): Buffer {
  let pepper = peppers.get(authSecret);
  if (!pepper) {
    pepper = deriveKey(authSecret, "client-secret-pepper");
    peppers.set(authSecret, pepper);
  }
  return pepper;
}

/**
 * Secrets are 256-bit random values, so a keyed fast hash is enough: a slow
 * password hash would only make every token request expensive.
 */
export function hashClientSecret(secret: string, authSecret: string): string {
  return createHmac("sha256", pepperFor(authSecret)).update(secret).digest("base64url");
}

/** Constant-time comparison of a presented secret's hash with one stored hash. */
export function secretHashesEqual(presentedHash: string, storedHash: string): boolean {
  const actual = Buffer.from(presentedHash);
  const expected = Buffer.from(storedHash);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The last four characters, shown so owners can tell their secrets apart. */
export function secretHint(secret: string): string {
  return secret.slice(-4);
}
