import type { Operation } from "@/lib/catalog/operations";
import { CodeSamples } from "./code-samples";

type Props = { operations: Operation[]; tokenEndpoint: string; serverUrl: string; envName: string; acceptsApiKeys?: boolean };

type SampleMethod = "client_secret" | "api_key";

const METHOD_LABELS: Record<SampleMethod, string> = { client_secret: "with a token", api_key: "with an API key" };

/** Per operation of a protected API, the code samples for calling it from a program, folded until asked for: one per method the API accepts. */
export function OperationSamples({ operations, tokenEndpoint, serverUrl, envName, acceptsApiKeys }: Props) {
  if (operations.length === 0) return null;
  const methods: SampleMethod[] = acceptsApiKeys ? ["client_secret", "api_key"] : ["client_secret"];
  return (
    <section aria-labelledby="operation-samples" className="space-y-3">
      <h2 id="operation-samples" className="text-xl font-semibold">
        {`Code samples (${envName})`}
      </h2>
      <p className="text-slate-800">
        Each program reads <code className="font-mono">CLIENT_ID</code> and <code className="font-mono">CLIENT_SECRET</code> from the environment, gets a token
        at <span className="break-all font-mono">{tokenEndpoint}</span> and makes the call.
        {acceptsApiKeys ? (
          <>
            {" "}
            This API also accepts an API key: those programs read <code className="font-mono">API_KEY</code> and send it as{" "}
            <code className="font-mono">X-API-Key</code>, with no token.
          </>
        ) : null}{" "}
        Path parameters come from environment variables too.
      </p>
      <ul className="space-y-2">
        {operations.map((operation) => (
          <li key={`${operation.method} ${operation.path}`}>
            <details className="rounded-lg border border-slate-200 bg-white p-3">
              <summary className="cursor-pointer">
                <span className="font-mono font-semibold">{operation.method}</span> <span className="break-all font-mono">{operation.path}</span>
                {operation.summary ? <span className="text-slate-700"> — {operation.summary}</span> : null}
              </summary>
              <div className="mt-3 space-y-3">
                {methods.map((authentication) => (
                  <CodeSamples
                    key={authentication}
                    call={{ tokenEndpoint, serverUrl, operation, authentication }}
                    context={`${operation.method} ${operation.path}${acceptsApiKeys ? ` ${METHOD_LABELS[authentication]}` : ""}`}
                  />
                ))}
              </div>
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}
