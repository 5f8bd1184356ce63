/** A delivery is retried for this long after its event, then marked failed. */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
const FIRST_RETRY_MS = 30_000;
const LONGEST_WAIT_MS = 60 * 60 * 1000;

/**
 * The wait after `attempts` failed attempts: 30 s, doubling up to an hour, each drawn at random
 * between half and all of that, so deliveries that failed together do not retry together.
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(FIRST_RETRY_MS * 2 ** Math.max(attempts - 1, 0), LONGEST_WAIT_MS);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** When to try again after a failure, or null when that falls past the retry window: the delivery has failed. */
export function nextAttemptAt(input: { attempts: number; createdAt: Date; now: Date; random?: () => number }): Date | null {
  const next = new Date(input.now.getTime() + retryDelayMs(input.attempts, input.random));
  return next.getTime() - input.createdAt.getTime() > RETRY_WINDOW_MS ? null : next;
}
