import type { Metadata } from "next";
import { DeprecatedCalls } from "@/components/usage/deprecated-calls";
import { RequestLookupResult } from "@/components/usage/request-lookup-result";
import { SubscriptionsTable } from "@/components/subscriptions/subscriptions-table";
import { UsagePanels } from "@/components/usage/usage-panels";
import { ValidationFailures } from "@/components/usage/validation-failures";
import { deprecatedCallsOf } from "@/lib/api-lifecycle/deprecated-calls";
import { DEFAULT_USAGE_DAYS } from "@/lib/api-lifecycle/deprecation-usage";
import { requireUser } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { firstParam, type SearchParams } from "@/lib/http/search-params";
import { findMyRequest, myClients } from "@/lib/usage/my-usage";
import { parseUsageRange, USAGE_RANGES, usageRangeStart, usageReport } from "@/lib/usage/usage-report";
import { listSubscriptions } from "@/lib/subscriptions/list-subscriptions";
import { recentValidationFailures } from "@/lib/usage/validation-failures";

export const metadata: Metadata = { title: "Usage" };
export const dynamic = "force-dynamic";

const CONTROL = "max-w-full rounded border border-slate-400 bg-white px-2 py-1";

export default async function MyUsagePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser("/settings/usage");
  const params = await searchParams;
  const range = parseUsageRange(firstParam(params.range));
  const requestId = firstParam(params.requestId, 200)?.trim() ?? "";
  const clients = await myClients(db(), user);
  const chosen = clients.find((client) => client.clientId === firstParam(params.client, 100));
  const scope = { clients: chosen ? [chosen.clientId] : clients.map((client) => client.clientId) };
  const [report, found, deprecatedCalls, validationFailures, subscriptions] = await Promise.all([
    usageReport(db(), scope, range),
    requestId ? findMyRequest(db(), user, requestId) : Promise.resolve(null),
    deprecatedCallsOf(
      db(),
      clients.map((client) => client.clientId),
    ),
    recentValidationFailures(db(), scope, usageRangeStart(range)),
    listSubscriptions({ db: db(), viewer: user }),
  ]);
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold">Usage</h1>
      <section aria-labelledby="request-lookup" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="request-lookup" className="text-lg font-semibold">
          Look up a request
        </h2>
        <p className="text-sm text-slate-700">
          Every gateway answer carries an <code className="font-mono">X-Request-Id</code> header, and every problem body a{" "}
          <code className="font-mono">requestId</code>. Paste one to see what the gateway recorded for it; only your own credentials&apos; requests of the last
          days are found.
        </p>
        <form method="get" className="flex flex-wrap items-end gap-3 text-sm">
          <div className="min-w-0 max-w-full space-y-1">
            <label htmlFor="requestId" className="block font-medium">
              Request ID
            </label>
            <input id="requestId" name="requestId" defaultValue={requestId} maxLength={200} className={`${CONTROL} w-72 max-w-full font-mono`} />
          </div>
          <input type="hidden" name="range" value={range} />
          {chosen ? <input type="hidden" name="client" value={chosen.clientId} /> : null}
          <button type="submit" className="rounded-md bg-accent px-3 py-1.5 font-medium text-on-accent hover:bg-accent-hover">
            Look up
          </button>
        </form>
        {requestId ? <RequestLookupResult requestId={requestId} found={found} /> : null}
      </section>

      <section aria-labelledby="deprecated-calls" className="space-y-3">
        <h2 id="deprecated-calls" className="text-lg font-semibold">
          Deprecated calls
        </h2>
        <p className="text-sm text-slate-700">
          Calls your credentials made to API versions and operations that are deprecated: they stop working at their sunset date, so move these calls to the
          version the API page names.
        </p>
        <DeprecatedCalls credentials={clients} calls={deprecatedCalls} days={DEFAULT_USAGE_DAYS} />
      </section>

      <section aria-labelledby="my-usage" className="space-y-4">
        <h2 id="my-usage" className="text-lg font-semibold">
          Your traffic
        </h2>
        {clients.length === 0 ? (
          <p className="text-slate-700">You have no credentials yet, so there is no traffic to show.</p>
        ) : (
          <>
            <form method="get" className="flex flex-wrap items-end gap-3 text-sm">
              <div className="min-w-0 max-w-full space-y-1">
                <label htmlFor="usage-client" className="block font-medium">
                  Application and environment
                </label>
                <select id="usage-client" name="client" defaultValue={chosen?.clientId ?? ""} className={CONTROL}>
                  <option value="">All your teams&apos; credentials</option>
                  {[...new Set(clients.map((client) => client.team))].map((team) => (
                    <optgroup key={team} label={`Team ${team}`}>
                      {clients
                        .filter((client) => client.team === team)
                        .map((client) => (
                          <option key={client.clientId} value={client.clientId}>
                            {`${client.application} — ${client.environmentName} (${client.clientId})`}
                          </option>
                        ))}
                    </optgroup>
                  ))}
                </select>
              </div>
              <div className="min-w-0 max-w-full space-y-1">
                <label htmlFor="usage-range" className="block font-medium">
                  Period
                </label>
                <select id="usage-range" name="range" defaultValue={range} className={CONTROL}>
                  {Object.entries(USAGE_RANGES).map(([key, value]) => (
                    <option key={key} value={key}>
                      {value.label}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="rounded-md border border-slate-400 bg-white px-3 py-1.5 font-medium">
                Show
              </button>
            </form>
            <UsagePanels report={report} callers="your applications" />
            <ValidationFailures failures={validationFailures} callers="your applications" />
          </>
        )}
      </section>
      {subscriptions.length > 0 && (
        <section aria-labelledby="my-subscriptions" className="space-y-3">
          <h2 id="my-subscriptions" className="text-lg font-semibold">
            Subscriptions and quotas
          </h2>
          <SubscriptionsTable subscriptions={subscriptions} caption="Quota used and remaining per subscription, in the current period" />
        </section>
      )}
    </div>
  );
}
