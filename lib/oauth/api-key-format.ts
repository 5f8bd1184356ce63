import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const PREFIX = "gk_";

/** `gk_` + 32 base62 random characters + a 6-character base62 CRC32 of what precedes it: secret scanners look for the shape. */
export const API_KEY_PATTERN = /^gk_[0-9A-Za-z]{38}$/;

/** The checksum of `body` (`gk_` and the random part): CRC32, in 6 base62 characters, most significant first. */
function checksumOf(body: string): string {
  let value = crc32(body);
  let text = "";
  for (let index = 0; index < CHECKSUM_LENGTH; index++) {
    text = BASE62[value % 62] + text;
    value = Math.floor(value / 62);
  }
  return text;
}

/** 32 base62 characters, each from a byte below 248 (4 × 62), so that every character is equally likely. */
function randomBase62(length: number): string {
  let text = "";
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && text.length < length) text += BASE62[byte % 62];
    }
  }
  return text;
}

export function generateApiKey(): string {
  const body = PREFIX + randomBase62(RANDOM_LENGTH);
  return body + checksumOf(body);
}

/** Whether `value` has a key's shape and its checksum matches: checked before any lookup, so a typo or a guess costs no query. */
export function isWellFormedApiKey(value: string): boolean {
  if (!API_KEY_PATTERN.test(value)) return false;
  const split = value.length - CHECKSUM_LENGTH;
  return checksumOf(value.slice(0, split)) === value.slice(split);
}
