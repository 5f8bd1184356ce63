import Link from "next/link";
import { currentUser } from "@/lib/auth/session";
import type { CatalogApi, CatalogEnvironment } from "@/lib/catalog/catalog-api";
import { myApiCredentials } from "@/lib/credentials/api-credentials";
import { CreateCredentialHere } from "./create-credential-here";
import { formatLongDate } from "./format-date";
import { apiPageHref } from "./hrefs";
import { db } from "@/lib/db";

const LINK = "text-blue-800 underline";

/** The signed-in user's own credential(s) for this API in the chosen environment, or the next step to get one. */
export async function MyCredentials({ api, env, envParam }: { api: CatalogApi; env: CatalogEnvironment; envParam?: string }) {
  const user = await currentUser();
  if (!user) {
    return (
      <p className="text-slate-800">
        <Link
          href={`/login?callbackUrl=${encodeURIComponent(apiPageHref(api.slug, { tab: "credentials", env: envParam, version: api.versionParam }))}`}
          className={LINK}
        >
          Sign in
        </Link>{" "}
        to see your credentials for {env.name}.
      </p>
    );
  }
  const credentials = await myApiCredentials({ db: db(), user, envSlug: env.slug, api });
  if (credentials.length === 0) {
    return env.selfService ? (
      <div className="space-y-3">
        <p className="text-slate-800">
          You have no credential for {api.name} in {env.name} yet. Create one here; the secret is shown once.
        </p>
        <CreateCredentialHere environment={env.slug} environmentName={env.name} idPrefix="credentials-tab" />
      </div>
    ) : (
      <p className="text-slate-800">
        You have no credential for {api.name} in {env.name}. Credentials here need an administrator&apos;s approval:{" "}
        <Link href="/settings/credentials" className={LINK}>
          request access in Settings
        </Link>{" "}
        or through{" "}
        <Link href="/contact" className={LINK}>
          Contact Us
        </Link>
        .
      </p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[32rem] text-left text-sm">
        <caption className="sr-only">{`Your credentials for ${api.name} in ${env.name}`}</caption>
        <thead className="border-b border-slate-300 text-slate-700">
          <tr>
            <th scope="col" className="py-2 pr-4">
              Application
            </th>
            <th scope="col" className="py-2 pr-4">
              Client ID
            </th>
            <th scope="col" className="py-2 pr-4">
              Status
            </th>
            <th scope="col" className="py-2 pr-4">
              Secret expires
            </th>
            <th scope="col" className="py-2 pr-4">
              Last used
            </th>
          </tr>
        </thead>
        <tbody>
          {credentials.map((credential) => (
            <tr key={credential.clientId} className="border-b border-slate-200">
              <td className="py-2 pr-4">{credential.application}</td>
              <td className="break-all py-2 pr-4 font-mono">{credential.clientId}</td>
              <td className="py-2 pr-4">{credential.status === "ACTIVE" ? "Active" : "Revoked"}</td>
              <td className="py-2 pr-4">
                {!credential.hasSecret ? "No secret yet" : credential.secretExpiresAt ? formatLongDate(credential.secretExpiresAt) : "Never"}
              </td>
              <td className="py-2 pr-4">{credential.lastUsedAt ? formatLongDate(credential.lastUsedAt) : "Never"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-sm text-slate-700">
        Rotate, revoke or generate secrets under{" "}
        <Link href="/settings/credentials" className={LINK}>
          Settings → Client Credentials
        </Link>
        .
      </p>
    </div>
  );
}
