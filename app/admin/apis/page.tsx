import type { Metadata } from "next";
import { Link } from "@/components/link";
import { requireAdmin } from "@/lib/auth/session";
import { listRegisteredApis } from "@/lib/api-registry/api-registry";
import { db } from "@/lib/db";

export const metadata: Metadata = { title: "API registry" };
export const dynamic = "force-dynamic";

export default async function AdminApisPage() {
  await requireAdmin("/admin/apis");
  const apis = await listRegisteredApis({ db: db() });
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">API registry</h1>
        <Link href="/admin/apis/new" className="rounded-md bg-accent px-4 py-2 font-medium text-on-accent hover:bg-accent-hover">
          New API
        </Link>
      </div>
      <ul className="space-y-2">
        {apis.map((api) => (
          <li key={api.slug} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
            <Link href={`/admin/apis/${api.slug}`} className="font-medium text-blue-700 underline">
              {api.name}
            </Link>{" "}
            <span className="text-slate-600">
              {api.slug} · {api.version} · {api.isPublic ? "public" : "protected"} · {api.kind.toLowerCase()} ·{" "}
              {api.environments.map((env) => env.environment.slug).join(", ")}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
