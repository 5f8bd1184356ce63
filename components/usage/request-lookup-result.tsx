import type { ReactNode } from "react";
import type { RequestLookup } from "@/lib/usage/my-usage";
import { ProblemTypeLink } from "./problem-type-link";
import { validationErrorLine } from "./validation-failures";

function problemType(found: RequestLookup): ReactNode {
  if (found.problem) return <ProblemTypeLink code={found.problem} />;
  return found.status < 400 ? "none" : "none: the upstream API answered";
}

/** What the gateway recorded for one request; another client's request reads exactly like an unknown id. */
export function RequestLookupResult({ requestId, found }: { requestId: string; found: RequestLookup | null }) {
  if (!found) {
    return (
      <p role="status" className="text-sm text-slate-800">
        Request <code className="break-all font-mono">{requestId}</code> was not found among your requests.
      </p>
    );
  }
  const rows: [string, ReactNode][] = [
    ["Time", `${found.at.toISOString().replace("T", " ").slice(0, 23)} UTC`],
    ["Environment", found.environment],
    ["API", found.api],
    ["Operation", `${found.method} ${found.route}`],
    ["Status", String(found.status)],
    ["Problem type", problemType(found)],
    ["Latency", `${Math.round(found.latencyMs * 10) / 10} ms`],
    ["Client ID", found.clientId],
  ];
  if (found.validationErrors) {
    rows.push([
      "Request validation",
      <ul key="errors">
        {found.validationErrors.map((error, index) => (
          <li key={`${index}:${error.message}`}>{validationErrorLine(error)}</li>
        ))}
      </ul>,
    ]);
  }
  return (
    <dl role="status" aria-label={`Request ${found.requestId}`} className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-slate-600">{label}</dt>
          <dd className="break-all font-mono">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
