import type { Operation } from "@/lib/catalog/operations";
import { CodeSamples } from "./code-samples";

type Props = { operations: Operation[]; tokenEndpoint: string; serverUrl: string; envName: string };

/** Per operation of a protected API, the code samples for calling it from a program, folded until asked for. */
export function OperationSamples({ operations, tokenEndpoint, serverUrl, envName }: Props) {
  if (operations.length === 0) return null;
  return (
    <section aria-labelledby="operation-samples" className="space-y-3">
      <h2 id="operation-samples" className="text-xl font-semibold">
        {`Code samples (${envName})`}
      </h2>
      <p className="text-slate-800">
        Each program reads <code className="font-mono">CLIENT_ID</code> and <code className="font-mono">CLIENT_SECRET</code> from the environment, gets a token
        at <span className="break-all font-mono">{tokenEndpoint}</span> and makes the call. Path parameters come from environment variables too.
      </p>
      <ul className="space-y-2">
        {operations.map((operation) => (
          <li key={`${operation.method} ${operation.path}`}>
            <details className="rounded-lg border border-slate-200 bg-white p-3">
              <summary className="cursor-pointer">
                <span className="font-mono font-semibold">{operation.method}</span> <span className="break-all font-mono">{operation.path}</span>
                {operation.summary ? <span className="text-slate-700"> — {operation.summary}</span> : null}
              </summary>
              <div className="mt-3">
                <CodeSamples call={{ tokenEndpoint, serverUrl, operation }} context={`${operation.method} ${operation.path}`} />
              </div>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
