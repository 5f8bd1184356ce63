import { Link } from "@/components/link";
import { apiPageHref } from "@/components/api-page/hrefs";
import { TryItLink } from "@/components/api-page/try-it-link";
import { ApiCard } from "@/components/catalog/api-card";
import { CatalogFilters } from "@/components/catalog/catalog-filters";
import { FirstCallSteps } from "@/components/home/first-call-steps";
import { currentUser } from "@/lib/auth/session";
import { listCatalogApis } from "@/lib/catalog/catalog-api";
import { catalogFilterSchema } from "@/lib/catalog/catalog-filter";
import { selectEnvironment } from "@/lib/catalog/environment-urls";
import { featuredApis } from "@/lib/catalog/featured-apis";
import { config } from "@/lib/config";
import { db } from "@/lib/db";
import { developerProgress } from "@/lib/onboarding/developer-progress";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const { portalEnvironment, brand } = config();
  const [apis, user] = await Promise.all([listCatalogApis(db(), { pinnedEnvironment: portalEnvironment }), currentUser()]);
  const progress = user ? await developerProgress(db(), user) : null;
  const featured = featuredApis(apis);
  const environments = [...new Map(apis.flatMap((api) => api.environments).map((env) => [env.slug, env])).values()];
  // The environment an API page opens in, kept in the link as the API page keeps it, unless the deployment is pinned.
  const envParam = (api: (typeof apis)[number]) => (portalEnvironment === undefined ? selectEnvironment(api.environments, undefined)?.slug : undefined);
  const firstProtected = featured.find((api) => !api.isPublic);
  // A developer's first call goes to an API one of their credentials may call, in that credential's environment.
  const callable = progress?.callable.find(({ api }) => featured.some((shown) => shown.slug === api && !shown.isPublic));
  const tryItHref = callable
    ? apiPageHref(callable.api, { tab: "reference", env: portalEnvironment === undefined ? callable.env : undefined, tryIt: true })
    : firstProtected && apiPageHref(firstProtected.slug, { tab: "reference", env: envParam(firstProtected), tryIt: true });
  return (
    <div className="space-y-10">
      <section aria-labelledby="home-title" className="space-y-4">
        <h1 id="home-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
          {`${brand.name} developer portal`}
        </h1>
        <p className="max-w-2xl text-lg text-slate-700">
          Find the APIs you need, get credentials for the right environment, and call them through one gateway that checks every request.
        </p>
        <CatalogFilters filter={catalogFilterSchema.parse({})} environments={environments} />
      </section>
      <section aria-labelledby="home-apis" className="space-y-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="home-apis" className="text-xl font-semibold">
            APIs
          </h2>
          <Link href="/apis" className="font-medium text-blue-800 underline">
            {featured.length < apis.length ? `Browse all ${apis.length} APIs` : "Browse the API catalog"}
          </Link>
        </div>
        {featured.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-700">No APIs are published yet.</p>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
            {featured.map((api) => (
              <li key={api.slug} className="flex">
                <ApiCard api={api} headingLevel={3} action={api.isPublic ? undefined : <TryItLink slug={api.slug} env={envParam(api)} apiName={api.name} />} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <FirstCallSteps progress={progress} apiNames={new Map(apis.map((api) => [api.slug, api.name]))} tryItHref={tryItHref} />
    </div>
  );
}
