import type { Metadata } from "next";
import { Link } from "@/components/link";
import { RequestDecision } from "@/components/admin/request-decision";
import { requireAdmin } from "@/lib/auth/session";
import { accessRequestQueue } from "@/lib/access-requests/list-access-requests";
import { firstParam, type SearchParams } from "@/lib/http/search-params";
import { TOPIC_LABELS } from "@/lib/access-requests/topics";
import { db } from "@/lib/db";

export const metadata: Metadata = { title: "Access requests" };
export const dynamic = "force-dynamic";

const STATUSES = ["PENDING", "APPROVED", "REJECTED"] as const;

export default async function AdminRequestsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await requireAdmin("/admin/requests");
  const wanted = firstParam((await searchParams).status)?.toUpperCase();
  const status = STATUSES.find((candidate) => candidate === wanted) ?? "PENDING";
  const requests = await accessRequestQueue({ db: db(), status });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Access requests</h1>
      <nav aria-label="Request status" className="flex gap-3 text-sm">
        {STATUSES.map((candidate) => (
          <Link
            key={candidate}
            href={`/admin/requests?status=${candidate.toLowerCase()}`}
            aria-current={candidate === status ? "page" : undefined}
            className={candidate === status ? "font-semibold underline" : "text-blue-700 hover:underline"}
          >
            {candidate.charAt(0) + candidate.slice(1).toLowerCase()}
          </Link>
        ))}
      </nav>
      {requests.length === 0 ? <p className="text-slate-700">No {status.toLowerCase()} requests.</p> : null}
      <ul className="space-y-3">
        {requests.map((request) => (
          <li
            key={request.id}
            aria-label={`Request from ${request.email}: ${request.applicationName ?? TOPIC_LABELS[request.topic]}`}
            className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm"
          >
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{TOPIC_LABELS[request.topic]}</span>
              <span>
                {request.name} &lt;{request.email}&gt;
              </span>
              <span className="text-slate-600">{request.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC</span>
            </div>
            <p>
              {[request.api?.name, request.environment?.name, request.applicationName].filter(Boolean).join(" · ") ||
                (request.topic === "ACCOUNT" ? "Signed up; approving lets this developer sign in" : "General question")}
            </p>
            <p className="whitespace-pre-wrap text-slate-700">{request.message}</p>
            {request.status === "PENDING" ? (
              <RequestDecision id={request.id} />
            ) : (
              <p className="text-slate-700">
                {request.status === "APPROVED" ? "Approved" : "Rejected"} by {request.decidedBy?.email ?? "unknown"}
                {request.decisionReason ? `: ${request.decisionReason}` : ""}
                {request.credential ? ` (credential ${request.credential.clientId})` : ""}
              </p>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
