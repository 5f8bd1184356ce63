import { formatLongDate } from "@/components/api-page/format-date";
import type { DeprecatedCall } from "@/lib/api-lifecycle/deprecated-calls";
import { deprecationName, type OperationCalls, utcMinute } from "@/lib/api-lifecycle/deprecation-usage";

type Credential = { clientId: string; application: string; environmentName: string };

export function CalledOperations({ operations }: { operations: OperationCalls[] }) {
  return (
    <ul className="space-y-0.5">
      {operations.map((operation) => (
        <li key={`${operation.method} ${operation.route}`}>
          <code className="break-all font-mono">
            {operation.method} {operation.route}
          </code>
          : {operation.count} {operation.count === 1 ? "call" : "calls"}, last {utcMinute(operation.lastCalledAt)}
        </li>
      ))}
    </ul>
  );
}

/** Settings → Usage: per credential of the user, its calls to deprecated versions and operations over the window. */
export function DeprecatedCalls({ credentials, calls, days }: { credentials: Credential[]; calls: DeprecatedCall[]; days: number }) {
  if (calls.length === 0) {
    return <p className="text-slate-700">None of your credentials called a deprecated API version or operation in the last {days} days.</p>;
  }
  const label = new Map(credentials.map((credential) => [credential.clientId, `${credential.application} — ${credential.environmentName}`]));
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full border-collapse bg-white text-left text-sm">
        <caption className="p-2 text-left font-medium">Calls in the last {days} days to what is deprecated</caption>
        <thead>
          <tr className="border-b border-slate-300">
            {["Credential", "Deprecated", "Calls", "Operations called", "Sunset"].map((heading) => (
              <th key={heading} scope="col" className="p-2">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {calls.map(({ deprecation, calls: client }) => (
            <tr key={`${client.clientId} ${deprecation.subject.kind}:${deprecation.subject.id}`} className="border-b border-slate-200 align-top">
              <td className="p-2">
                {label.get(client.clientId)}
                <br />
                <code className="break-all font-mono text-xs">{client.clientId}</code>
              </td>
              <td className="p-2">{deprecationName(deprecation)}</td>
              <td className="p-2">{client.count}</td>
              <td className="p-2">
                <CalledOperations operations={client.operations} />
              </td>
              <td className="p-2">{deprecation.sunsetAt ? formatLongDate(deprecation.sunsetAt) : "Not set"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
