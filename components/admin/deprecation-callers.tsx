import Link from "next/link";
import { formatLongDate } from "@/components/api-page/format-date";
import { CalledOperations } from "@/components/usage/deprecated-calls";
import type { Caller } from "@/lib/api-lifecycle/deprecated-calls";
import { type Deprecation, deprecationName, subjectKey, utcMinute } from "@/lib/api-lifecycle/deprecation-usage";

type Props = { deprecation: Deprecation; callers: Caller[]; notice: { sentAt: Date; clientCount: number } | null; days: number };

/** One deprecated version or operation and who still calls it: the admin console's Deprecations page. */
export function DeprecationCallers({ deprecation, callers, notice, days }: Props) {
  const id = `deprecation-${subjectKey(deprecation.subject).replace(":", "-")}`;
  return (
    <section aria-labelledby={id} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={id} className="text-lg font-semibold">
        {deprecationName(deprecation)}
      </h2>
      <p className="text-sm text-slate-700">
        {deprecation.deprecatedAt ? `Deprecated ${formatLongDate(deprecation.deprecatedAt)}` : "Deprecated"}
        {" · "}
        {deprecation.sunsetAt ? `Sunset ${formatLongDate(deprecation.sunsetAt)}` : "No sunset date"}
        {" · "}
        {notice ? `Notice sent ${utcMinute(notice.sentAt)} to ${notice.clientCount} ${notice.clientCount === 1 ? "client" : "clients"}` : "No notice sent"}
      </p>
      {callers.length === 0 ? (
        <p className="text-sm text-slate-700">No client called it in the last {days} days.</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="sr-only">
              Clients that called {deprecationName(deprecation)} in the last {days} days
            </caption>
            <thead>
              <tr className="border-b border-slate-300">
                {["Client ID", "Application", "Owner", "Environment", "Calls", "Last call", "Operations"].map((heading) => (
                  <th key={heading} scope="col" className="p-2">
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {callers.map((caller) => (
                <tr key={`${caller.environment} ${caller.clientId}`} className="border-b border-slate-200 align-top">
                  <td className="p-2">
                    <Link href={`/admin/credentials/${caller.clientId}`} className="break-all font-mono underline">
                      {caller.clientId}
                    </Link>
                  </td>
                  <td className="p-2">{caller.application ?? "Deleted"}</td>
                  <td className="p-2">{caller.owner ?? "No owner"}</td>
                  <td className="p-2">{caller.environment}</td>
                  <td className="p-2">{caller.count}</td>
                  <td className="p-2">{utcMinute(caller.lastCalledAt)}</td>
                  <td className="p-2">
                    <CalledOperations operations={caller.operations} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
