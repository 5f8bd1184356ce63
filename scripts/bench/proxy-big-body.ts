// The 64 MiB the proxy workload streams down and up: 64 KiB chunks, each
// numbered in its first bytes, so that a lost, repeated or reordered chunk
// changes the digest the receiver checks.
import { createHash } from "node:crypto";

const CHUNK_BYTES = 64 * 1024;
const CHUNKS = 1024;
export const BIG_BYTES = CHUNK_BYTES * CHUNKS;

const PATTERN = Buffer.alloc(CHUNK_BYTES, "gatehouse proxy bench ");

export function* bigChunks(): Generator<Buffer> {
  for (let index = 0; index < CHUNKS; index++) {
    const chunk = Buffer.from(PATTERN);
    chunk.writeUInt32BE(index, 0);
    yield chunk;
  }
}

export function bigBodyDigest(): string {
  const hash = createHash("sha256");
  for (const chunk of bigChunks()) hash.update(chunk);
  return hash.digest("hex");
}
