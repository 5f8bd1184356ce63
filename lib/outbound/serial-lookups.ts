/** Resolves a host name to all its addresses. */
export type Resolve = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

/**
 * `resolve`, one lookup at a time, each given up after `timeoutMs`. The system's lookup
 * (getaddrinfo) holds a thread of libuv's pool of two (decision 074) for as long as a name
 * server takes; a host whose name server never answers must not take the whole pool from
 * DPoP proofs' checks, token signing and file reads. A lookup given up before its turn is
 * never started; one under way keeps the turn until it ends.
 */
export function oneLookupAtATime(resolve: Resolve, timeoutMs: number): Resolve {
  let previous: Promise<unknown> = Promise.resolve();
  return (hostname) => {
    let givenUp = false;
    const resolved = previous.then(() => (givenUp ? [] : resolve(hostname)));
    previous = resolved.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        givenUp = true;
        reject(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref();
    });
    return Promise.race([resolved, deadline]).finally(() => clearTimeout(timer));
  };
}
