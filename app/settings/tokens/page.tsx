import type { Metadata } from "next";
import { AccessTokenList } from "@/components/settings/access-token-list";
import { NewAccessTokenForm } from "@/components/settings/new-access-token-form";
import { listAccessTokens } from "@/lib/access-tokens/access-tokens";
import { ACCESS_TOKEN_SCOPES, ADMIN_SCOPES } from "@/lib/access-tokens/scopes";
import { requireUser } from "@/lib/auth/session";
import { db } from "@/lib/db";

export const metadata: Metadata = { title: "Access tokens" };
export const dynamic = "force-dynamic";

export default async function AccessTokensPage() {
  const user = await requireUser("/settings/tokens");
  const tokens = await listAccessTokens({ db: db(), userId: user.id });
  const scopes = Object.entries(ACCESS_TOKEN_SCOPES)
    .filter(([scope]) => user.role === "ADMIN" || !ADMIN_SCOPES.includes(scope as keyof typeof ACCESS_TOKEN_SCOPES))
    .map(([scope, description]) => ({ scope, description }));
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl font-bold">Access tokens</h1>
        <p className="text-slate-700">
          Personal access tokens let scripts and CI call the management API at <code className="font-mono">/api/v1</code> as you, with the scopes you choose.
          Send one as <code className="font-mono">Authorization: Bearer gpat_…</code>.
        </p>
      </div>
      <NewAccessTokenForm scopes={scopes} />
      <AccessTokenList tokens={JSON.parse(JSON.stringify(tokens))} />
    </div>
  );
}
