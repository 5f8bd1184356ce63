/**
 * How the serving thread asks the request-log worker for SQLite's write lock. The
 * worker commits a batch of rows at a time, and a notification update that found
 * it holding the lock waited for the whole commit, a few milliseconds under load
 * (decision 007, "Updates and SQLite's write lock"). Through this count of writers waiting, shared
 * between the two threads, the worker commits what it has written as soon as one
 * waits, and starts its next transaction once none does.
 */
export const writeTurns = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
const WAITING = 0;

/** How long the worker gives way at most, so that a writer stuck elsewhere cannot stop the log. */
const GIVE_WAY_MS = 20;

export function askForWriteLock(): void {
  Atomics.add(writeTurns, WAITING, 1);
}

export function stopAskingForWriteLock(): void {
  Atomics.sub(writeTurns, WAITING, 1);
  Atomics.notify(writeTurns, WAITING);
}

/** In the worker: whether a writer waits for the lock. */
export function writersAreWaiting(turns: Int32Array): boolean {
  return Atomics.load(turns, WAITING) > 0;
}

/** In the worker, before each transaction: blocks until no writer waits, or GIVE_WAY_MS at most. */
export function giveWayToWaitingWriters(turns: Int32Array): void {
  const deadline = performance.now() + GIVE_WAY_MS;
  for (let waiting = Atomics.load(turns, WAITING); waiting > 0; waiting = Atomics.load(turns, WAITING)) {
    const left = deadline - performance.now();
    if (left <= 0) return;
    Atomics.wait(turns, WAITING, waiting, left);
  }
}
