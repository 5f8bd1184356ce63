import Link from "next/link";
import type { CatalogEnvironment } from "@/lib/catalog/catalog-api";
import { type ApiTab, apiPageHref } from "./hrefs";

type Props = { slug: string; tab: ApiTab; version?: string; environments: CatalogEnvironment[]; current: CatalogEnvironment };

/**
 * One control for the environment: the server in the Reference, the token
 * endpoint and the examples all follow `?env=`.
 */
export function EnvironmentSwitcher({ slug, tab, version, environments, current }: Props) {
  return (
    <nav aria-label="Environment" className="flex flex-wrap items-center gap-2 text-sm">
      <span className="font-medium text-slate-700">Environment:</span>
      <ul className="flex flex-wrap gap-1">
        {environments.map((env) => {
          const selected = env.slug === current.slug;
          return (
            <li key={env.slug}>
              <Link
                href={apiPageHref(slug, { tab, env: env.slug, version })}
                aria-current={selected ? "true" : undefined}
                className={
                  selected
                    ? "block rounded-full border border-blue-800 bg-blue-800 px-3 py-1 font-medium text-white"
                    : "block rounded-full border border-slate-400 bg-white px-3 py-1 text-slate-800 hover:border-blue-800"
                }
              >
                {env.name}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
