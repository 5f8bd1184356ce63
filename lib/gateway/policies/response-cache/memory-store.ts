import { entrySize, type ResponseCacheStore, type Stored } from "./store";

/** Bytes of path keys whose generation this process remembers; past it they are forgotten together (see `floor`). */
const MAX_GENERATION_KEY_BYTES = 8 * 1024 * 1024;

/** `key` is the string the entry was stored under, which a hit re-inserts instead of its own. */
type Slot = { key: string; stored: Stored; size: number; expiresAt: number };

/**
 * This process's entries, least recently used first out once they pass `maxBytes`. An entry
 * larger than the whole bound is not kept.
 */
export function createMemoryResponseCacheStore(maxBytes: number, now: () => number = Date.now): ResponseCacheStore & { readonly bytes: number } {
  const slots = new Map<string, Slot>();
  let bytes = 0;
  const generations = new Map<string, number>();
  let generationKeyBytes = 0;
  // Generations only grow: a path forgotten reads as the floor, above every generation handed out before.
  let last = 0;
  let floor = 0;

  function remove(key: string, slot: Slot): void {
    slots.delete(key);
    bytes -= slot.size;
  }

  function take(key: string): Stored | undefined {
    const slot = slots.get(key);
    if (!slot) return undefined;
    remove(key, slot);
    if (slot.expiresAt <= now()) return undefined;
    // The call's own key string would then live as long as the entry: past the young generation.
    slots.set(slot.key, slot);
    bytes += slot.size;
    return slot.stored;
  }

  return {
    get bytes() {
      return bytes;
    },
    async read(pathKey, key) {
      return { generation: generations.get(pathKey) ?? floor, stored: take(key) };
    },
    async variant(key) {
      return take(key);
    },
    async put(key, stored, keepMs) {
      const size = entrySize(stored) + key.length;
      const old = slots.get(key);
      if (old) remove(key, old);
      if (size > maxBytes) return;
      slots.set(key, { key, stored, size, expiresAt: now() + keepMs });
      bytes += size;
      for (const [oldest, slot] of slots) {
        if (bytes <= maxBytes) break;
        remove(oldest, slot);
      }
    },
    async invalidate(pathKey) {
      if (!generations.has(pathKey)) generationKeyBytes += pathKey.length;
      if (generationKeyBytes > MAX_GENERATION_KEY_BYTES) {
        generations.clear();
        generationKeyBytes = pathKey.length;
        floor = ++last;
      }
      generations.set(pathKey, ++last);
    },
  };
}
