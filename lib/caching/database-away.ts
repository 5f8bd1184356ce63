import type { Logger } from "pino";
import { problem } from "../http/problem";

/** A read of the database that a gateway call waits for, answered or refused. */
export type AwaitedRead = <T>(read: Promise<T>) => Promise<T>;

/**
 * What a call gets when a copy it needs is past its bound and the database does not answer
 * the read that would renew it: 503 `not-ready` naming the database, as `/api/ready` does
 * (decision 042), instead of the read's own error. The outage is logged once, when the first
 * read fails, and again only after a read has answered since.
 */
export function refusedWhileDatabaseAway(copy: string, log?: Pick<Logger, "warn">): AwaitedRead {
  let away = false;
  return async (read) => {
    try {
      const value = await read;
      away = false;
      return value;
    } catch (error) {
      if (!away) log?.warn({ err: error }, `${copy}: the database does not answer; calls that need it are refused until it does`);
      away = true;
      throw problem("not-ready", { detail: "This instance cannot serve requests: database does not answer.", extensions: { down: ["database"] } });
    }
  };
}
