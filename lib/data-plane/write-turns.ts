/**
 * How the serving thread asks a batch writer in another thread (the request log's
 * worker) for SQLite's write lock. The batch writer commits many rows at a time, and
 * a notification update that found it holding the lock waited for the whole commit, a
 * few milliseconds under load (decision 007, "Updates and SQLite's write lock").
 * Through this count of writers waiting, which the serving thread hands to the batch
 * writer's thread, the batch writer commits what it has written as soon as one waits,
 * and starts its next transaction once none does.
 */
export const writeTurns = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
const WAITING = 0;

/** How long the batch writer gives way at most, so that a writer stuck elsewhere cannot stop it. */
const GIVE_WAY_MS = 20;

export function askForWriteLock(): void {
  Atomics.add(writeTurns, WAITING, 1);
}

export function stopAskingForWriteLock(): void {
  Atomics.sub(writeTurns, WAITING, 1);
  Atomics.notify(writeTurns, WAITING);
}

/** In the batch writer: whether a writer waits for the lock. */
export function writersAreWaiting(turns: Int32Array): boolean {
  return Atomics.load(turns, WAITING) > 0;
}

/** In the batch writer, before each transaction: blocks until no writer waits, or GIVE_WAY_MS at most. */
export function giveWayToWaitingWriters(turns: Int32Array): void {
  const deadline = performance.now() + GIVE_WAY_MS;
  for (let waiting = Atomics.load(turns, WAITING); waiting > 0; waiting = Atomics.load(turns, WAITING)) {
    const left = deadline - performance.now();
    if (left <= 0) return;
    Atomics.wait(turns, WAITING, waiting, left);
  }
}
