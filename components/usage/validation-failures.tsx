import { DataTable } from "@/components/data-table";
import type { ValidationFailure, ValidationFailureError } from "@/lib/usage/validation-failures";

/** `body /items/0/price: must be >= 0`, `query ids: /1: must be integer`. */
export function validationErrorLine(error: ValidationFailureError): string {
  const where = error.pointer !== undefined ? `${error.in} ${error.pointer || "(whole)"}` : `${error.in} ${error.name ?? ""}`;
  return `${where}: ${error.message}`;
}

/**
 * The latest calls that failed request validation under `report`, which the gateway forwarded
 * anyway: each with its operation, request id and every error the check found.
 */
export function ValidationFailures({ failures, callers }: { failures: ValidationFailure[]; callers: string }) {
  return (
    <DataTable
      caption={`Latest calls of ${callers} that failed request validation`}
      empty="No call failed request validation in this period."
      rows={failures}
      rowKey={(failure) => failure.requestId + failure.at.toISOString()}
      minWidth="40rem"
      columns={[
        { header: "Time (UTC)", cell: (failure) => failure.at.toISOString().replace("T", " ").slice(0, 19) },
        { header: "Operation", cell: (failure) => `${failure.api} ${failure.method} ${failure.route}`, className: "break-all" },
        { header: "Status", cell: (failure) => failure.status },
        { header: "Request ID", cell: (failure) => <code className="break-all font-mono">{failure.requestId}</code> },
        {
          header: "Errors",
          cell: (failure) => (
            <ul className="space-y-0.5 font-mono text-xs">
              {failure.errors.map((error, index) => (
                // Two errors can read alike; the position in the check's list tells them apart, and the list never changes.
                <li key={`${index}:${validationErrorLine(error)}`} className="break-all">
                  {validationErrorLine(error)}
                </li>
              ))}
            </ul>
          ),
        },
      ]}
    />
  );
}
