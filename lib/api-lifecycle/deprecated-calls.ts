import "server-only";
import type { DbClient } from "../db";
import { activeDeprecations, type ClientCalls, DEFAULT_USAGE_DAYS, type Deprecation, deprecationUsage } from "./deprecation-usage";

type Window = { days?: number; now?: Date };

/** One deprecated version or operation and one client's calls to it. */
export type DeprecatedCall = { deprecation: Deprecation; calls: ClientCalls };

/**
 * Each of the given clients' calls, in the last `days` (default 30), to versions and operations
 * deprecated and not yet past their sunset: what Settings → Usage shows per credential.
 */
export async function deprecatedCallsOf(
  db: DbClient,
  clientIds: readonly string[],
  { days = DEFAULT_USAGE_DAYS, now = new Date() }: Window = {},
): Promise<DeprecatedCall[]> {
  if (clientIds.length === 0) return [];
  const deprecations = await activeDeprecations(db, now);
  const usage = await Promise.all(deprecations.map((deprecation) => deprecationUsage(db, deprecation, { days, now, clientIds })));
  return deprecations.flatMap((deprecation, index) => usage[index]!.map((calls) => ({ deprecation, calls })));
}

export type Caller = ClientCalls & { application: string | null; owner: string | null };

/** Every deprecation not yet past its sunset, with the clients that still call it and who owns them: the admin console's view. */
export async function deprecationCallers(
  db: DbClient,
  { days = DEFAULT_USAGE_DAYS, now = new Date() }: Window = {},
): Promise<{ deprecation: Deprecation; callers: Caller[] }[]> {
  const deprecations = await activeDeprecations(db, now);
  const usage = await Promise.all(deprecations.map((deprecation) => deprecationUsage(db, deprecation, { days, now })));
  const clientIds = [...new Set(usage.flat().map((calls) => calls.clientId))];
  const credentials = await db.credential.findMany({
    where: { clientId: { in: clientIds } },
    select: { clientId: true, application: { select: { name: true, owner: { select: { email: true } } } } },
  });
  const byClient = new Map(credentials.map((credential) => [credential.clientId, credential.application]));
  return deprecations.map((deprecation, index) => ({
    deprecation,
    callers: usage[index]!.map((calls) => {
      const application = byClient.get(calls.clientId);
      return { ...calls, application: application?.name ?? null, owner: application?.owner?.email ?? null };
    }),
  }));
}
