import "server-only";
import type { Logger } from "pino";
import type { DataPlaneStore } from "../data-plane/store";

export type LastUsedMarks = {
  mark(credentialId: string, secretId?: string): void;
  /** Writes what is marked now, e.g. before the process stops. */
  flush(): Promise<void>;
};

/** `lastUsedAt` of credentials and secrets, written every `flushMs` rather than on every request. */
export function createLastUsedMarks(input: { store: Pick<DataPlaneStore, "markUsed">; log: Logger; flushMs?: number }): LastUsedMarks {
  const { store, log } = input;
  const credentials = new Set<string>();
  const secrets = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  async function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const credentialIds = [...credentials];
    const secretIds = [...secrets];
    credentials.clear();
    secrets.clear();
    await store.markUsed({ credentialIds, secretIds, now: new Date() });
  }

  return {
    mark(credentialId, secretId) {
      credentials.add(credentialId);
      if (secretId) secrets.add(secretId);
      timer ??= setTimeout(() => flush().catch((error: unknown) => log.warn({ err: error }, "could not record credential use")), input.flushMs ?? 5_000);
      timer.unref();
    },
    flush,
  };
}
