import { randomBytes } from "node:crypto";

/** Prefixed random ids (`ntf_…`, `cred_…`) keep logs and support tickets readable. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("base64url")}`;
}
