import { Link } from "@/components/link";
import { DataTable } from "@/components/data-table";
import { currentUser } from "@/lib/auth/session";
import type { CatalogApi, CatalogEnvironment } from "@/lib/catalog/catalog-api";
import { myApiCredentials } from "@/lib/credentials/api-credentials";
import { CreateCredentialHere } from "./create-credential-here";
import { formatLongDate } from "./format-date";
import { apiPageHref } from "./hrefs";
import { CodeExample } from "./code-example";
import { dpopSample } from "@/lib/catalog/dpop-sample";
import type { SampleCall } from "@/lib/catalog/code-samples";
import { db } from "@/lib/db";

const LINK = "text-blue-800 underline";

/** The signed-in user's own credential(s) for this API in the chosen environment, or the next step to get one. */
export async function MyCredentials({
  api,
  env,
  envParam,
  call,
}: {
  api: CatalogApi;
  env: CatalogEnvironment;
  envParam?: string;
  /** the first call, shown as a DPoP program when a credential requires DPoP */
  call?: SampleCall;
}) {
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
    <div>
      <DataTable
        caption={`Your credentials for ${api.name} in ${env.name}`}
        minWidth="32rem"
        rows={credentials}
        rowKey={(credential) => credential.clientId}
        columns={[
          { header: "Application", cell: (credential) => credential.application },
          { header: "Client ID", className: "break-all font-mono", cell: (credential) => credential.clientId },
          { header: "Status", cell: (credential) => (credential.status === "ACTIVE" ? "Active" : "Revoked") },
          {
            header: "Secret expires",
            cell: (credential) => (!credential.hasSecret ? "No secret yet" : credential.secretExpiresAt ? formatLongDate(credential.secretExpiresAt) : "Never"),
          },
          { header: "Last used", cell: (credential) => (credential.lastUsedAt ? formatLongDate(credential.lastUsedAt) : "Never") },
          { header: "Tokens", cell: (credential) => (credential.requireDpop ? "DPoP-bound" : "Bearer") },
        ]}
      />
      {call && credentials.some((credential) => credential.requireDpop) ? (
        <div className="mt-4 space-y-2">
          <p className="text-slate-800">
            Your credential requires DPoP (RFC 9449): send a DPoP proof with the token request and with every call, as{" "}
            <code className="font-mono">Authorization: DPoP &lt;token&gt;</code>. Bearer calls with its tokens are refused.
          </p>
          <CodeExample title="JavaScript (Node.js 20+): a DPoP call" code={dpopSample(call)} />
        </div>
      ) : null}
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
