import Link from "next/link";
import type { ReactNode } from "react";
import { AccessBadge } from "@/components/catalog/badges";

type Props = {
  api: { name: string; version: string; isPublic: boolean; summary: string };
  /** how callers authenticate, beside the access badge */
  badge: ReactNode;
  /** what follows the summary in the header */
  children?: ReactNode;
};

/** The top of an API's page: the way back to the catalog, then its name, version, badges and summary. */
export function ApiPageHeader({ api, badge, children }: Props) {
  return (
    <>
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/apis" className="text-blue-800 underline">
          APIs
        </Link>{" "}
        / <span aria-current="page">{api.name}</span>
      </nav>
      <header className="space-y-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-3xl font-bold tracking-tight">{api.name}</h1>
          <span className="text-slate-700">v{api.version}</span>
          <AccessBadge isPublic={api.isPublic} />
          {badge}
        </div>
        <p className="max-w-3xl text-lg text-slate-700">{api.summary}</p>
        {children}
      </header>
    </>
  );
}
