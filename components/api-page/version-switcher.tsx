import Link from "next/link";
import type { CatalogVersion } from "@/lib/catalog/catalog-versions";
import { type ApiTab, apiPageHref } from "./hrefs";

type Props = { slug: string; tab: ApiTab; env?: string; versions: CatalogVersion[]; shown: CatalogVersion; defaultVersion: string };

const STATUS_LABELS: Record<CatalogVersion["status"], string> = { beta: "beta", current: "current", deprecated: "deprecated", retired: "retired" };

/** One link per version: the Reference, the samples and the Client Credentials tab follow `?version=`. */
export function VersionSwitcher({ slug, tab, env, versions, shown, defaultVersion }: Props) {
  return (
    <nav aria-label="Version" className="flex flex-wrap items-center gap-2 text-sm">
      <span className="font-medium text-slate-700">Version:</span>
      <ul className="flex flex-wrap gap-1">
        {versions.map((version) => {
          const selected = version.version === shown.version;
          return (
            <li key={version.version}>
              <Link
                href={apiPageHref(slug, { tab, env, version: version.version === defaultVersion ? undefined : version.version })}
                aria-current={selected ? "true" : undefined}
                className={
                  selected
                    ? "block rounded-full border border-blue-800 bg-blue-800 px-3 py-1 font-medium text-white"
                    : "block rounded-full border border-slate-400 bg-white px-3 py-1 text-slate-800 hover:border-blue-800"
                }
              >
                {version.version}
                {version.status === "current" ? null : <span className={selected ? "" : "text-slate-600"}>{` (${STATUS_LABELS[version.status]})`}</span>}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

const day = (date: Date) => date.toISOString().slice(0, 10);

/** What a reader of a deprecated or retired version must know: since when, until when, and where to go. */
export function VersionNotice({ shown, successor }: { shown: CatalogVersion; successor?: { version: string; href: string } }) {
  if (shown.status !== "deprecated" && shown.status !== "retired") return null;
  const until = shown.sunsetAt ? ` Its calls stop working on ${day(shown.sunsetAt)} (sunset): they answer 410 from then on.` : "";
  return (
    <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
      {shown.status === "retired"
        ? `Version ${shown.version} is retired: its calls answer 410.`
        : `Version ${shown.version} is deprecated${shown.deprecatedAt ? ` since ${day(shown.deprecatedAt)}` : ""}.${until}`}{" "}
      {successor ? (
        <Link href={successor.href} className="text-blue-800 underline">
          {`Move to ${successor.version}`}
        </Link>
      ) : null}
    </p>
  );
}
