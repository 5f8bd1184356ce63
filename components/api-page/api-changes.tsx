import type { ChangedOperation, OperationRef } from "@/lib/api-lifecycle/openapi-diff";
import { type VersionDocument, versionSteps } from "@/lib/api-lifecycle/version-changes";

function BreakingBadge() {
  return <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900">Breaking</span>;
}

function OperationName({ operation }: { operation: OperationRef }) {
  return (
    <>
      <code className="font-mono text-sm">
        {operation.method} {operation.path}
      </code>
      {operation.summary && <span className="text-slate-700"> · {operation.summary}</span>}
    </>
  );
}

function OperationList({ title, operations, breaking }: { title: string; operations: OperationRef[]; breaking: boolean }) {
  if (operations.length === 0) return null;
  return (
    <div className="space-y-1">
      <h4 className="font-medium">
        {title} ({operations.length})
      </h4>
      <ul className="space-y-1">
        {operations.map((operation) => (
          <li key={`${operation.method} ${operation.path}`} className="flex flex-wrap items-center gap-2">
            <OperationName operation={operation} />
            {breaking && <BreakingBadge />}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ChangedList({ operations }: { operations: ChangedOperation[] }) {
  if (operations.length === 0) return null;
  return (
    <div className="space-y-1">
      <h4 className="font-medium">Changed ({operations.length})</h4>
      <ul className="space-y-2">
        {operations.map((operation) => (
          <li key={`${operation.method} ${operation.path}`}>
            <div className="flex flex-wrap items-center gap-2">
              <OperationName operation={operation} />
              {operation.breaking && <BreakingBadge />}
            </div>
            <ul className="ml-5 list-disc text-sm">
              {operation.changes.map((change) => (
                <li key={change.message}>
                  {change.breaking && <strong>Breaking: </strong>}
                  {change.message}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * What changed from each version of an API to the next: operations added, removed
 * and changed, breaking ones marked in words and with a badge. Takes the API's
 * ApiVersion rows as they are; a version without a readable document is named as such.
 */
export function ApiChanges({ versions }: { versions: readonly VersionDocument[] }) {
  const steps = versionSteps(versions);
  if (steps.length === 0) return null;
  return (
    <section aria-labelledby="api-changes" className="space-y-3">
      <h2 id="api-changes" className="text-xl font-semibold">
        Changes between versions
      </h2>
      <ol className="space-y-3">
        {steps.toReversed().map(({ from, to, diff }) => (
          <li key={`${from}-${to}`} className="space-y-2 rounded-md border border-slate-200 bg-white p-3">
            <h3 className="flex flex-wrap items-center gap-2 font-semibold">
              {from} → {to}
              {diff?.breaking && <BreakingBadge />}
            </h3>
            {!diff ? (
              <p className="text-slate-700">One of these versions has no readable OpenAPI document to compare.</p>
            ) : diff.added.length + diff.removed.length + diff.changed.length === 0 ? (
              <p className="text-slate-700">No operation changed.</p>
            ) : (
              <>
                <OperationList title="Added" operations={diff.added} breaking={false} />
                <OperationList title="Removed" operations={diff.removed} breaking />
                <ChangedList operations={diff.changed} />
              </>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
