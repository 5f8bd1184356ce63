import { formatLongDate } from "@/components/api-page/format-date";
import { DataTable } from "@/components/data-table";
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
    <DataTable
      caption={`Calls in the last ${days} days to what is deprecated`}
      showCaption
      rows={calls}
      rowKey={({ deprecation, calls: client }) => `${client.clientId} ${deprecation.subject.kind}:${deprecation.subject.id}`}
      columns={[
        {
          header: "Credential",
          cell: ({ calls: client }) => (
            <>
              {label.get(client.clientId)}
              <br />
              <code className="break-all font-mono text-xs">{client.clientId}</code>
            </>
          ),
        },
        { header: "Deprecated", cell: ({ deprecation }) => deprecationName(deprecation) },
        { header: "Calls", cell: ({ calls: client }) => client.count },
        { header: "Operations called", cell: ({ calls: client }) => <CalledOperations operations={client.operations} /> },
        { header: "Sunset", cell: ({ deprecation }) => (deprecation.sunsetAt ? formatLongDate(deprecation.sunsetAt) : "Not set") },
      ]}
    />
  );
}
