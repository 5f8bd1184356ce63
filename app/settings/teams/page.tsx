import type { Metadata } from "next";
import { NewTeamForm } from "@/components/teams/new-team-form";
import { TeamCard } from "@/components/teams/team-card";
import { requireUser } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { myTeams } from "@/lib/teams/my-teams";

export const metadata: Metadata = { title: "Teams" };
export const dynamic = "force-dynamic";

export default async function TeamsPage() {
  const user = await requireUser("/settings/teams");
  const teams = await myTeams({ db: db(), user });
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl font-bold">Teams</h1>
        <p className="text-slate-700">
          Teams own applications. Owners manage members; admins create, rotate and revoke credentials; members see credentials and usage and use test tokens.
        </p>
      </div>
      <NewTeamForm />
      {teams.length === 0 ? <p className="text-slate-700">You are in no team yet. Your personal team appears with your first credential.</p> : null}
      {teams.map((team) => (
        <TeamCard key={team.id} team={JSON.parse(JSON.stringify(team))} userId={user.id} />
      ))}
    </div>
  );
}
