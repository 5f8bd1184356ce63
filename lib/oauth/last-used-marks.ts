import "server-only";
import type { Logger } from "pino";
import type { DataPlaneStore } from "../data-plane/store";

export type LastUsedMarks = {
  mark(credentialId: string, secretId?: string): void;
  /** An agent's call under the consent; written at most once per `consentEveryMs` for each consent. */
  markConsent(consentId: string): void;
  /** Writes what is marked now, e.g. before the process stops. */
  flush(): Promise<void>;
};

/** A consent's last use is shown to the minute; more writes would only load the database. */
export const CONSENT_MARK_EVERY_MS = 60_000;

/**
 * `lastUsedAt` of credentials, secrets and agents' consents, written every `flushMs` rather than
 * on every request.
 */
export function createLastUsedMarks(input: { store: Pick<DataPlaneStore, "markUsed">; log: Logger; flushMs?: number; consentEveryMs?: number }): LastUsedMarks {
  const { store, log } = input;
  const consentEveryMs = input.consentEveryMs ?? CONSENT_MARK_EVERY_MS;
  const credentials = new Set<string>();
  const secrets = new Set<string>();
  const consents = new Set<string>();
  /** When each consent was last marked, forgotten once older than `consentEveryMs`, so it stays as large as a minute's consents. */
  const consentMarkedAt = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  async function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const credentialIds = [...credentials];
    const secretIds = [...secrets];
    const consentIds = [...consents];
    credentials.clear();
    secrets.clear();
    consents.clear();
    const now = Date.now();
    for (const [consentId, markedAt] of consentMarkedAt) if (now - markedAt >= consentEveryMs) consentMarkedAt.delete(consentId);
    await store.markUsed({ credentialIds, secretIds, consentIds, now: new Date(now) });
  }

  function schedule() {
    timer ??= setTimeout(() => flush().catch((error: unknown) => log.warn({ err: error }, "could not record credential use")), input.flushMs ?? 5_000);
    timer.unref();
  }

  return {
    mark(credentialId, secretId) {
      credentials.add(credentialId);
      if (secretId) secrets.add(secretId);
      schedule();
    },
    markConsent(consentId) {
      const now = Date.now();
      const markedAt = consentMarkedAt.get(consentId);
      if (markedAt !== undefined && now - markedAt < consentEveryMs) return;
      consentMarkedAt.set(consentId, now);
      consents.add(consentId);
      schedule();
    },
    flush,
  };
}
