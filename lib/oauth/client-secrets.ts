import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { deriveKey } from "./derived-keys";

/** `gsk_` + 43 base64url characters (256 random bits): secret scanners look for the prefix. */
export const CLIENT_SECRET_PATTERN = /^gsk_[A-Za-z0-9_-]{43}$/;

export function generateClientSecret(): string {
  return `gsk_${randomBytes(32).toString("base64url")}`;
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

/** Constant-time comparison of a presented secret with one stored hash. */
export function clientSecretMatches(secret: string, storedHash: string, authSecret: string): boolean {
  const actual = Buffer.from(hashClientSecret(secret, authSecret));
  const expected = Buffer.from(storedHash);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The last four characters, shown so owners can tell their secrets apart. */
export function secretHint(secret: string): string {
  return secret.slice(-4);
}
