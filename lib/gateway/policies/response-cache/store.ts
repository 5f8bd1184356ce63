/** An answer as the cache keeps it. Times are epoch milliseconds. */
export type CachedAnswer = {
  kind: "answer";
  status: number;
  headers: Record<string, string | string[]>;
  body: Uint8Array<ArrayBuffer>;
  /** when the answer arrived from the upstream, or was last revalidated */
  storedAt: number;
  /** past it the answer is stale and never served without revalidation */
  expiresAt: number;
  /** the Age it arrived with, in seconds */
  arrivedAge: number;
  /** `no-cache`: every use is revalidated with the upstream first */
  revalidate: boolean;
  /** the path's generation it was stored under; any other generation makes it a miss */
  generation: number;
};

/** Kept under the primary key of an answer that had a Vary: the request fields that pick its variant. */
export type VaryMarker = { kind: "vary"; names: string[]; generation: number };

export type Stored = CachedAnswer | VaryMarker;

/**
 * What a path's generation or an entry is kept under, in two parts: `scope`, the text the calls of
 * one API (and for an entry, one route configuration and owner) share, which the stage keeps from
 * one call to the next; `name`, the call's own (its path, its query, the variant's fields). The
 * memory store looks the two up one after the other, so that a call hashes only its short name
 * (the scope's hash is kept with the string); Redis joins and digests them. Neither part holds a
 * line break but as the separator the stage puts between its own parts: URLs are percent-encoded.
 */
export type StoreKey = { scope: string; name: string };

/** A path's current generation and what a key holds, read together. */
export type StoreRead = { generation: number; stored: Stored | undefined };

/** Where entries live: Redis, shared by every instance, or this process's memory. */
export type ResponseCacheStore = {
  /** the path's current generation and what the key holds, read together: at once from this process's memory */
  read(path: StoreKey, key: StoreKey): StoreRead | Promise<StoreRead>;
  /** a variant's answer, after `read` found a Vary marker */
  variant(key: StoreKey): Promise<Stored | undefined>;
  /** keeps an entry for `keepMs` */
  put(key: StoreKey, stored: Stored, keepMs: number): Promise<void>;
  /** moves the path's generation on, so every entry stored under an earlier one is a miss */
  invalidate(path: StoreKey): Promise<void>;
};

/** The key's text, its parts joined as the stage joins its own. */
export function joinedKey(key: StoreKey): string {
  return `${key.scope}\n${key.name}`;
}

/** Bytes an entry costs in memory, besides its key: its body, its headers, and a little for the rest. */
export function entrySize(stored: Stored): number {
  if (stored.kind === "vary") return 64 + stored.names.join(",").length;
  let size = 256 + stored.body.byteLength;
  for (const [name, value] of Object.entries(stored.headers)) size += name.length + (Array.isArray(value) ? value.join("").length : value.length) + 16;
  return size;
}

/** One buffer: the entry's fields as a JSON line, then the body's bytes as they are. */
export function encodeStored(stored: Stored): Buffer {
  if (stored.kind === "vary") return Buffer.from(`${JSON.stringify(stored)}\n`);
  const { body, ...fields } = stored;
  return Buffer.concat([Buffer.from(`${JSON.stringify(fields)}\n`), body]);
}

export function decodeStored(buffer: Buffer): Stored | undefined {
  const newline = buffer.indexOf(10);
  if (newline === -1) return undefined;
  const fields = JSON.parse(buffer.subarray(0, newline).toString("utf8")) as Stored;
  if (fields.kind === "vary") return fields;
  return { ...fields, body: new Uint8Array(buffer.subarray(newline + 1)) };
}
