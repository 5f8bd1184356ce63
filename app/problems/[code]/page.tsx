import type { Metadata } from "next";
import { Link } from "@/components/link";
import { notFound } from "next/navigation";
import { InlineCodeText } from "@/components/api-page/inline-code-text";
import { PROBLEM_TYPES, problemAdvice } from "@/lib/catalog/problem-advice";

type Props = { params: Promise<{ code: string }> };

export function generateStaticParams() {
  return PROBLEM_TYPES.map(({ code }) => ({ code }));
}

export const dynamicParams = false;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const problem = problemAdvice((await params).code);
  return { title: problem ? problem.title : "Unknown problem type" };
}

/** The page behind each gateway problem `type` URI: what happened and what to do. */
export default async function ProblemPage({ params }: Props) {
  const { code } = await params;
  const problem = problemAdvice(code);
  if (!problem) notFound();
  return (
    <article className="max-w-3xl space-y-6">
      <header className="space-y-2">
        <p className="font-mono text-sm text-slate-700">
          Problem type <code>{problem.code}</code> · HTTP {problem.status}
        </p>
        <h1 className="text-3xl font-bold tracking-tight">{problem.title}</h1>
      </header>
      <section aria-labelledby="problem-what" className="space-y-2">
        <h2 id="problem-what" className="text-xl font-semibold">
          What happened
        </h2>
        <p className="text-slate-800">
          <InlineCodeText text={problem.explanation} />
        </p>
      </section>
      <section aria-labelledby="problem-do" className="space-y-2">
        <h2 id="problem-do" className="text-xl font-semibold">
          What to do
        </h2>
        <p className="text-slate-800">
          <InlineCodeText text={problem.advice} />
        </p>
      </section>
      <p className="text-slate-800">
        Every problem answer is an RFC 9457 <code className="font-mono">application/problem+json</code> document with a{" "}
        <code className="font-mono">requestId</code>; look it up under{" "}
        <Link href="/settings/usage" className="text-blue-800 underline">
          Settings → Usage
        </Link>{" "}
        (field &quot;Request ID&quot;) to see what the gateway recorded for your request, and quote it when you{" "}
        <Link href="/contact" className="text-blue-800 underline">
          contact us
        </Link>
        . Browse the{" "}
        <Link href="/apis" className="text-blue-800 underline">
          API catalog
        </Link>{" "}
        for each API&apos;s reference.
      </p>
    </article>
  );
}
