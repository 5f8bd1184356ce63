import type { Metadata } from "next";
import { Link } from "@/components/link";

export const metadata: Metadata = { title: "Page not found" };

/** Any portal URL that names nothing: in the site's layout, with ways back. */
export default function NotFound() {
  return (
    <section className="max-w-2xl space-y-4">
      <p className="font-mono text-sm text-slate-700">404</p>
      <h1 className="text-3xl font-bold tracking-tight">Page not found</h1>
      <p className="text-slate-800">There is no page at this address. It may have moved, or the link may be mistyped.</p>
      <ul className="flex flex-wrap gap-4 font-medium">
        <li>
          <Link href="/" className="text-blue-700 underline">
            Home
          </Link>
        </li>
        <li>
          <Link href="/apis" className="text-blue-700 underline">
            Browse the APIs
          </Link>
        </li>
        <li>
          <Link href="/contact" className="text-blue-700 underline">
            Contact us
          </Link>
        </li>
      </ul>
    </section>
  );
}
