import Link from "next/link";
import { TestTokenButton } from "@/components/settings/test-token-button";
import { currentUser } from "@/lib/auth/session";
import type { CatalogApi, CatalogEnvironment } from "@/lib/catalog/catalog-api";
import { testTokenCandidates } from "@/lib/portal/test-tokens";

/** A signed-in user's "Use a test token" control on the Reference tab of a protected API. */
export async function TestTokenSlot({ api, env }: { api: CatalogApi; env: CatalogEnvironment }) {
  if (api.isPublic) return null;
  const user = await currentUser();
  if (!user) {
    return (
      <p className="text-sm text-slate-700">
        <Link href={`/login?callbackUrl=${encodeURIComponent(`/apis/${api.slug}?env=${env.slug}&tab=reference`)}`} className="text-blue-700 underline">
          Sign in
        </Link>{" "}
        to try it with a test token for one of your credentials.
      </p>
    );
  }
  const candidates = await testTokenCandidates(user, env.slug, api.slug);
  if (candidates.length === 0) {
    return (
      <p className="text-sm text-slate-700">
        You have no credential in {env.name} for this API.{" "}
        <Link href="/settings/credentials" className="text-blue-700 underline">
          Get one under Settings
        </Link>
        .
      </p>
    );
  }
  return <TestTokenButton candidates={candidates} />;
}
