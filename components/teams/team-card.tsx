"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Field, INPUT_CLASS, SECONDARY_BUTTON_CLASS } from "../settings/field";
import { type FieldErrors, portalFetch } from "../settings/portal-fetch";
import { SubmitButton } from "@/components/submit-button";
import { useHydrated } from "@/components/use-hydrated";
import { ActionButton } from "@/components/action-button";

type Role = "owner" | "admin" | "member";
const ROLES: Role[] = ["owner", "admin", "member"];

export type TeamView = {
  id: string;
  name: string;
  personal: boolean;
  role: Role;
  members: { role: Role; user: { id: string; email: string; name: string } }[];
  invitations: { id: string; email: string; role: Role; expiresAt: string; invitedBy: string | null }[];
  applications: { id: string; name: string }[];
};

type Invitation = { email: string; role: Role; expiresAt: string; link: string };

/** One team of the user: members, invitations and applications, with the changes their role allows. */
export function TeamCard({ team, userId }: { team: TeamView; userId: string }) {
  const router = useRouter();
  const [error, setError] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [invitation, setInvitation] = useState<Invitation | null>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const base = `/api/portal/teams/${encodeURIComponent(team.id)}`;
  const isOwner = team.role === "owner";
  const canInvite = isOwner && !team.personal;

  async function run(url: string, method: string, body?: unknown) {
    setPending(true);
    const result = await portalFetch<unknown>(url, method, body);
    setPending(false);
    setErrors(result.ok ? {} : result.fieldErrors);
    setError(result.ok ? "" : result.message);
    router.refresh();
    return result;
  }

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const result = await run(`${base}/invitations`, "POST", Object.fromEntries(new FormData(form)));
    if (!result.ok) return;
    setInvitation(result.data as Invitation);
    form.reset();
  }

  const member = (id: string) => `${base}/members/${encodeURIComponent(id)}`;
  const label = team.personal ? `Personal team (${team.name})` : `Team ${team.name}`;

  return (
    <section aria-label={label} className="space-y-4 rounded-lg border border-slate-200 bg-white p-6">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-lg font-semibold">{label}</h2>
        <span className="rounded bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-900">your role: {team.role}</span>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div className="space-y-2">
        <h3 className="font-medium">Members</h3>
        <ul className="space-y-2 text-sm">
          {team.members.map(({ role, user }) => (
            <li key={user.id} aria-label={`Member ${user.email}`} className="flex flex-wrap items-center gap-3">
              <span>
                {user.name} &lt;{user.email}&gt;
              </span>
              {isOwner ? (
                <>
                  <label htmlFor={`role-${team.id}-${user.id}`} className="sr-only">
                    Role of {user.email}
                  </label>
                  <select
                    id={`role-${team.id}-${user.id}`}
                    value={role}
                    disabled={pending || !hydrated}
                    onChange={(event) => void run(member(user.id), "PATCH", { role: event.target.value })}
                    className="rounded border border-slate-400 bg-white px-2 py-1"
                  >
                    {ROLES.map((choice) => (
                      <option key={choice} value={choice}>
                        {choice}
                      </option>
                    ))}
                  </select>
                  {user.id === userId ? null : (
                    <ActionButton pending={pending} onClick={() => void run(member(user.id), "DELETE")} className={SECONDARY_BUTTON_CLASS}>
                      Remove {user.email}
                    </ActionButton>
                  )}
                </>
              ) : (
                <span className="text-slate-600">{role}</span>
              )}
            </li>
          ))}
        </ul>
      </div>
      {team.invitations.length > 0 ? (
        <div className="space-y-2">
          <h3 className="font-medium">Invitations pending</h3>
          <ul className="space-y-2 text-sm">
            {team.invitations.map((pendingInvitation) => (
              <li key={pendingInvitation.id} aria-label={`Invitation ${pendingInvitation.email}`} className="flex flex-wrap items-center gap-3">
                <span>
                  {pendingInvitation.email} as {pendingInvitation.role}, until {new Date(pendingInvitation.expiresAt).toUTCString()}
                  {pendingInvitation.invitedBy ? `, sent by ${pendingInvitation.invitedBy}` : ""}
                </span>
                <ActionButton
                  pending={pending}
                  onClick={() => void run(`${base}/invitations/${encodeURIComponent(pendingInvitation.id)}`, "DELETE")}
                  className={SECONDARY_BUTTON_CLASS}
                >
                  Cancel the invitation of {pendingInvitation.email}
                </ActionButton>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="space-y-2">
        <h3 className="font-medium">Applications</h3>
        {team.applications.length === 0 ? (
          <p className="text-sm text-slate-700">None yet: create a credential for this team under Client Credentials.</p>
        ) : (
          <ul className="list-inside list-disc text-sm">
            {team.applications.map((application) => (
              <li key={application.id}>{application.name}</li>
            ))}
          </ul>
        )}
      </div>
      {canInvite ? (
        <form onSubmit={invite} noValidate aria-label={`Invite to ${team.name}`} className="flex flex-wrap items-start gap-4">
          <Field id={`invite-email-${team.id}`} label="Email to invite" error={errors.email}>
            <input id={`invite-email-${team.id}`} name="email" type="email" maxLength={320} className={INPUT_CLASS} />
          </Field>
          <Field id={`invite-role-${team.id}`} label="Role">
            <select id={`invite-role-${team.id}`} name="role" defaultValue="member" className={INPUT_CLASS}>
              {ROLES.map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
          </Field>
          <SubmitButton pending={pending} className={`${SECONDARY_BUTTON_CLASS} mt-6`}>
            Invite
          </SubmitButton>
        </form>
      ) : null}
      {invitation ? (
        <section aria-label="Invitation link" className="space-y-2 rounded-lg border-2 border-amber-500 bg-amber-50 p-4 text-sm">
          <p role="alert" className="font-semibold text-amber-900">
            Send this link to {invitation.email}. It is shown only once and works for 7 days.
          </p>
          <code data-testid="invitation-link" className="block break-all rounded bg-white px-1">
            {invitation.link}
          </code>
          <ActionButton onClick={() => setInvitation(null)} className={SECONDARY_BUTTON_CLASS}>
            I have sent it
          </ActionButton>
        </section>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <ActionButton pending={pending} onClick={() => void run(`${base}/leave`, "POST")} className={SECONDARY_BUTTON_CLASS}>
          Leave team
        </ActionButton>
        {isOwner ? (
          <ActionButton
            pending={pending}
            onClick={() => window.confirm(`Delete the team ${team.name}?`) && void run(base, "DELETE")}
            className={SECONDARY_BUTTON_CLASS}
          >
            Delete team
          </ActionButton>
        ) : null}
      </div>
    </section>
  );
}
