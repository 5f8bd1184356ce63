import type { Metadata } from "next";
import { Link } from "@/components/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { Markdown } from "@/components/markdown";
import { resolveGuide } from "@/lib/catalog/api-guides";
import { guideHref } from "@/lib/catalog/guides";
import { db } from "@/lib/db";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ api: string; guide: string }> };

/** One query per request, shared by the metadata and the page. */
const findGuidePage = cache(async (slug: string, guideSlug: string) => (await resolveGuide(db(), slug, guideSlug)) ?? notFound());

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { api, guide } = await params;
  const found = await findGuidePage(api, guide);
  return { title: `${found.guide.title} · ${found.api.name}` };
}

export default async function GuidePage({ params }: Props) {
  const { api: slug, guide: guideSlug } = await params;
  const { api, guide, guides } = await findGuidePage(slug, guideSlug);
  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm">
        <Link href="/apis" className="text-blue-800 underline">
          APIs
        </Link>{" "}
        /{" "}
        <Link href={`/apis/${api.slug}`} className="text-blue-800 underline">
          {api.name}
        </Link>{" "}
        / <span aria-current="page">{guide.title}</span>
      </nav>
      <div className="grid gap-8 lg:grid-cols-[3fr_1fr]">
        <article aria-labelledby="guide-title" className="min-w-0 space-y-4">
          <h1 id="guide-title" className="text-3xl font-bold tracking-tight">
            {guide.title}
          </h1>
          <p className="text-sm">
            <a href={`${guideHref(api.slug, guide.slug)}.md`} className="text-blue-800 underline">
              This guide as Markdown
            </a>
          </p>
          <Markdown source={guide.markdown} />
        </article>
        <nav aria-labelledby="guide-list" className="min-w-0 space-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <h2 id="guide-list" className="font-semibold">
            {`Guides of the ${api.name}`}
          </h2>
          <ul className="space-y-1">
            {guides.map((each) => (
              <li key={each.slug}>
                <Link
                  href={guideHref(api.slug, each.slug)}
                  aria-current={each.slug === guide.slug ? "page" : undefined}
                  className="text-blue-800 underline aria-[current=page]:font-semibold aria-[current=page]:no-underline"
                >
                  {each.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </div>
  );
}
