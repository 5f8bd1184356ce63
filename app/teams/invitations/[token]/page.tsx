import type { Metadata } from "next";
import { Link } from "@/components/link";
import { AcceptInvitation } from "@/components/teams/accept-invitation";
import { requireUser } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { findInvitation } from "@/lib/teams/invitations";

export const metadata: Metadata = { title: "Team invitation" };
export const dynamic = "force-dynamic";

/** Where an invitation link leads: who invited the user into which team, and the button that accepts. */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const user = await requireUser(`/teams/invitations/${encodeURIComponent(token)}`);
  const invitation = await findInvitation({ db: db(), token });
  const unusable = !invitation
    ? null
    : invitation.acceptedAt
      ? "was accepted already"
      : invitation.expiresAt <= new Date()
        ? "has expired"
        : invitation.voidReason && `no longer stands: ${invitation.voidReason}`;
  return (
    <div className="mx-auto max-w-xl space-y-4">
      <h1 className="text-2xl font-bold">Team invitation</h1>
      {!invitation ? (
        <p>This invitation link is not valid. Check that you copied all of it, or ask the team&apos;s owner for a fresh one.</p>
      ) : unusable ? (
        <p>
          This invitation to <strong>{invitation.team.name}</strong> {unusable}. Ask an owner of the team for a fresh one.
        </p>
      ) : invitation.email !== user.email.toLowerCase() ? (
        <p>
          This invitation is for another email than yours ({user.email}). Sign in with the invited address, or ask the team&apos;s owner to invite the address
          you use.
        </p>
      ) : (
        <>
          <p>
            You are invited to join <strong>{invitation.team.name}</strong> as <strong>{invitation.role}</strong>. The invitation is valid until{" "}
            {invitation.expiresAt.toUTCString()}.
          </p>
          <AcceptInvitation teamName={invitation.team.name} />
        </>
      )}
      <p>
        <Link href="/settings/teams" className="text-blue-700 underline">
          Your teams
        </Link>
      </p>
    </div>
  );
}
