import type { Metadata } from "next";
import { CredentialList } from "@/components/settings/credential-list";
import { NewCredentialForm } from "@/components/settings/new-credential-form";
import { requireUser } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { myApplications } from "@/lib/credentials/my-credentials";
import { myTeams } from "@/lib/teams/my-teams";
import { personalTeamId } from "@/lib/teams/teams";

export const metadata: Metadata = { title: "Client Credentials" };
export const dynamic = "force-dynamic";

export default async function CredentialsPage() {
  const user = await requireUser("/settings/credentials");
  const [applications, teams, environments] = await Promise.all([
    myApplications({ db: db(), user }),
    myTeams({ db: db(), user }),
    db().environment.findMany({ orderBy: { position: "asc" }, select: { slug: true, name: true, selfService: true } }),
  ]);
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl font-bold">Client Credentials</h1>
        <p className="text-slate-700">
          Your teams' applications, grouped by team. Each application has one credential per environment. Exchange its client ID and secret for a token at the
          environment&apos;s token endpoint.
        </p>
      </div>
      <NewCredentialForm
        applications={[...new Set(applications.map((application) => application.name))]}
        teams={teams.filter((team) => team.id !== personalTeamId(user.id) && team.role !== "member").map((team) => ({ id: team.id, name: team.name }))}
        environments={environments.filter((env) => env.selfService)}
        approvalEnvironments={environments.filter((env) => !env.selfService)}
      />
      <CredentialList applications={JSON.parse(JSON.stringify(applications))} />
    </div>
  );
}
