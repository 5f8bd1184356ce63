import { Link } from "@/components/link";
import { TestTokenButton } from "@/components/settings/test-token-button";
import { currentUser } from "@/lib/auth/session";
import type { CatalogApi, CatalogEnvironment } from "@/lib/catalog/catalog-api";
import { testTokenCandidates } from "@/lib/credentials/test-tokens";
import { CreateCredentialHere } from "./create-credential-here";
import { apiPageHref, signInHref } from "./hrefs";
import { db } from "@/lib/db";

type Props = { api: CatalogApi; env: CatalogEnvironment; envParam?: string; autoApply: boolean };

/** A signed-in user's "Use a test token" control on the Reference tab of a protected API, or the step before it. */
export async function TestTokenSlot({ api, env, envParam, autoApply }: Props) {
  if (api.isPublic) return null;
  const user = await currentUser();
  if (!user) {
    return (
      <p className="text-sm text-slate-700">
        <Link
          href={signInHref(apiPageHref(api.slug, { tab: "reference", env: envParam, version: api.versionParam, tryIt: true }))}
          className="text-blue-700 underline"
        >
          Sign in
        </Link>{" "}
        to try it with a test token for one of your credentials.
      </p>
    );
  }
  const candidates = await testTokenCandidates({ db: db(), user, envSlug: env.slug, apiSlug: api.slug });
  if (candidates.length > 0) {
    return (
      <div className="space-y-2">
        <TestTokenButton candidates={candidates} autoApply={autoApply} />
        <p className="text-sm text-slate-700">
          The test token is a bearer token, also for a credential that requires DPoP: the gateway accepts it here. Your programs get DPoP-bound tokens; the
          Client Credentials tab shows how.
        </p>
      </div>
    );
  }
  if (env.selfService) {
    return (
      <div className="space-y-2 rounded-lg border border-slate-200 bg-white p-3">
        <p className="text-sm text-slate-700">You have no credential in {env.name} for this API. Create one here to try it with a test token.</p>
        <CreateCredentialHere environment={env.slug} environmentName={env.name} idPrefix="reference" applyTestToken />
      </div>
    );
  }
  return (
    <p className="text-sm text-slate-700">
      You have no credential in {env.name} for this API; credentials here need an administrator&apos;s approval.{" "}
      <Link href="/settings/credentials" className="text-blue-700 underline">
        Request access under Settings
      </Link>
      .
    </p>
  );
}
