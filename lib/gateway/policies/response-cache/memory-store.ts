import { entrySize, type ResponseCacheStore, type StoreKey, type StoreRead, type Stored } from "./store";

/** Bytes of path keys whose generation this process remembers; past it they are forgotten together (see `floor`). */
const MAX_GENERATION_KEY_BYTES = 8 * 1024 * 1024;

/** An entry, with the map of its scope that holds it under `name`; `used` once read since it last came up for eviction. */
type Slot = { scope: string; names: Map<string, Slot>; name: string; stored: Stored; size: number; expiresAt: number; used: boolean };

/**
 * This process's entries, evicted once they pass `maxBytes` by the second-chance approximation
 * of least recently used: oldest first, but an entry read since it last came up is kept, as if
 * stored again, so a hit only marks its entry. An entry larger than the whole bound is not kept.
 * Entries are found by their key's scope, then its name (`StoreKey`).
 */
export function createMemoryResponseCacheStore(
  maxBytes: number,
  now: () => number = Date.now,
): Omit<ResponseCacheStore, "read"> & { read(path: StoreKey, key: StoreKey): StoreRead; readonly bytes: number } {
  const scopes = new Map<string, Map<string, Slot>>();
  /** entries in the order they were stored or last given a second chance */
  const recency = new Set<Slot>();
  let bytes = 0;
  const generations = new Map<string, Map<string, number>>();
  let generationKeyBytes = 0;
  // Generations only grow: a path forgotten reads as the floor, above every generation handed out before.
  let last = 0;
  let floor = 0;

  function remove(slot: Slot): void {
    slot.names.delete(slot.name);
    if (slot.names.size === 0) scopes.delete(slot.scope);
    recency.delete(slot);
    bytes -= slot.size;
  }

  function take(key: StoreKey): Stored | undefined {
    const slot = scopes.get(key.scope)?.get(key.name);
    if (!slot) return undefined;
    if (slot.expiresAt <= now()) {
      remove(slot);
      return undefined;
    }
    slot.used = true;
    return slot.stored;
  }

  return {
    get bytes() {
      return bytes;
    },
    read(path, key) {
      return { generation: generations.get(path.scope)?.get(path.name) ?? floor, stored: take(key) };
    },
    async variant(key) {
      return take(key);
    },
    async put(key, stored, keepMs) {
      const size = entrySize(stored) + key.scope.length + key.name.length;
      const old = scopes.get(key.scope)?.get(key.name);
      if (old) remove(old);
      if (size > maxBytes) return;
      // Room is made before the entry is added, so it is never its own put's candidate; an entry
      // given its second chance goes to the end, where this loop reaches it again unmarked.
      for (const oldest of recency) {
        if (bytes + size <= maxBytes) break;
        if (oldest.used) {
          oldest.used = false;
          recency.delete(oldest);
          recency.add(oldest);
        } else remove(oldest);
      }
      let names = scopes.get(key.scope);
      if (!names) scopes.set(key.scope, (names = new Map()));
      const slot: Slot = { scope: key.scope, names, name: key.name, stored, size, expiresAt: now() + keepMs, used: false };
      names.set(key.name, slot);
      recency.add(slot);
      bytes += size;
    },
    async invalidate(path) {
      let names = generations.get(path.scope);
      const added = (names?.has(path.name) ? 0 : path.name.length) + (names ? 0 : path.scope.length);
      if (generationKeyBytes + added > MAX_GENERATION_KEY_BYTES) {
        generations.clear();
        generationKeyBytes = 0;
        floor = ++last;
        names = undefined;
      }
      if (!names) {
        generations.set(path.scope, (names = new Map()));
        generationKeyBytes += path.scope.length;
      }
      if (!names.has(path.name)) generationKeyBytes += path.name.length;
      names.set(path.name, ++last);
    },
  };
}
