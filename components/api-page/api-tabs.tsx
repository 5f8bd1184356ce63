import Link from "next/link";
import { API_TABS, type ApiTab, apiPageHref } from "./hrefs";

/** Tabs as links, so each one has its own URL and works without JavaScript. */
export function ApiTabs({
  slug,
  current,
  env,
  version,
  tabs = API_TABS,
}: {
  slug: string;
  current: ApiTab;
  env?: string;
  version?: string;
  tabs?: readonly (typeof API_TABS)[number][];
}) {
  return (
    <nav aria-label="API sections" className="border-b border-slate-300">
      <ul className="-mb-px flex flex-wrap gap-1">
        {tabs.map((tab) => {
          const selected = tab.id === current;
          return (
            <li key={tab.id}>
              <Link
                href={apiPageHref(slug, { tab: tab.id, env, version })}
                aria-current={selected ? "page" : undefined}
                className={
                  selected
                    ? "block rounded-t-md border border-b-white border-slate-300 bg-white px-3 py-2 font-semibold text-blue-800"
                    : "block rounded-t-md border border-transparent px-3 py-2 text-slate-700 hover:text-blue-800 hover:underline"
                }
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
