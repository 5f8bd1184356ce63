import { Link } from "@/components/link";
import { AdminAction } from "@/components/admin/admin-action";
import { credentialsLackingScopes } from "@/lib/credentials/grants";
import { db } from "@/lib/db";

/** Active credentials granted this API without some of its scopes, each with the grant that gives it all of them. */
export async function ApiScopeGaps({ apiSlug }: { apiSlug: string }) {
  const gaps = await credentialsLackingScopes({ db: db(), apiSlug });
  if (gaps.length === 0) return null;
  return (
    <section aria-labelledby="scope-gaps" className="space-y-2">
      <h2 id="scope-gaps" className="text-lg font-semibold">
        Credentials without every scope
      </h2>
      <p className="text-sm text-slate-700">
        These credentials were granted {apiSlug} before it defined some of its scopes, or with fewer; granting every scope applies on every instance within 5
        seconds.
      </p>
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white text-sm">
        {gaps.map((gap) => (
          <li key={gap.clientId} className="flex flex-wrap items-start justify-between gap-2 p-2">
            <div className="space-y-1">
              <p>
                <Link href={`/admin/credentials/${gap.clientId}`} className="underline">
                  <code>{gap.clientId}</code>
                </Link>{" "}
                ({gap.application}, {gap.env})
              </p>
              <p className="text-amber-800">lacks scopes: {gap.lacking.join(", ")}</p>
            </div>
            <AdminAction
              action={`/api/portal/admin/credentials/${gap.clientId}/grant`}
              body={{ api: apiSlug }}
              label={`Grant every scope to ${gap.clientId}`}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
