import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/lib/auth/session";
import { myAccessRequests } from "@/lib/access-requests/list-access-requests";
import { TOPIC_LABELS } from "@/lib/access-requests/topics";
import { db } from "@/lib/db";

export const metadata: Metadata = { title: "Requests" };
export const dynamic = "force-dynamic";

const STATUS_STYLES = {
  PENDING: "bg-slate-200 text-slate-900",
  APPROVED: "bg-green-100 text-green-900",
  REJECTED: "bg-red-100 text-red-900",
} as const;

type MyRequest = Awaited<ReturnType<typeof myAccessRequests>>[number];

/** Requests that provisioned a credential go under its team; the others are the user's own, not yet in a team. */
function byTeam(requests: MyRequest[]): [string, MyRequest[]][] {
  const groups = new Map<string, MyRequest[]>();
  for (const request of requests) {
    const team = request.credential ? `Team ${request.credential.application.team.name}` : "Not in a team yet";
    groups.set(team, [...(groups.get(team) ?? []), request]);
  }
  return [...groups.entries()];
}

export default async function RequestsPage() {
  const user = await requireUser("/settings/requests");
  const requests = await myAccessRequests({ db: db(), user });
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Requests</h1>
      {requests.length === 0 ? (
        <p className="text-slate-700">
          You have sent no requests.{" "}
          <Link href="/contact" className="text-blue-700 underline">
            Contact us
          </Link>{" "}
          to ask for credentials or API access.
        </p>
      ) : (
        byTeam(requests).map(([team, teamRequests]) => (
          <section key={team} aria-label={team} className="space-y-3">
            <h2 className="text-lg font-semibold">{team}</h2>
            <ul className="space-y-3">
              {teamRequests.map((request) => (
                <li key={request.id} aria-label={`Request ${request.id}`} className="space-y-1 rounded-lg border border-slate-200 bg-white p-4 text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{TOPIC_LABELS[request.topic]}</span>
                    <span className={`rounded px-2 py-0.5 text-xs font-semibold ${STATUS_STYLES[request.status]}`}>{request.status.toLowerCase()}</span>
                    <span className="text-slate-600">{request.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC</span>
                  </div>
                  <p>
                    {[request.api?.name, request.environment?.name, request.applicationName].filter(Boolean).join(" · ") ||
                      (request.topic === "ACCOUNT" ? "Signed up; approving lets this developer sign in" : "General question")}
                  </p>
                  <p className="whitespace-pre-wrap text-slate-700">{request.message}</p>
                  {request.status === "REJECTED" && request.decisionReason ? <p>Reason: {request.decisionReason}</p> : null}
                  {request.status === "APPROVED" && request.credential ? (
                    <p>
                      Credential <code>{request.credential.clientId}</code> is ready:{" "}
                      <Link href="/settings/credentials" className="text-blue-700 underline">
                        generate its secret
                      </Link>
                      .
                    </p>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}
