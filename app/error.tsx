"use client";

import { Link } from "@/components/link";
import { ActionButton } from "@/components/action-button";

/** A page that failed to render: the digest ties it to the server's log line, never a stack trace. */
export default function PortalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section className="max-w-2xl space-y-4">
      <p className="font-mono text-sm text-slate-700">Error</p>
      <h1 className="text-3xl font-bold tracking-tight">Something went wrong</h1>
      <p className="text-slate-800">
        The portal could not show this page. Try again; if it keeps failing, tell us what you were doing
        {error.digest ? (
          <>
            {" "}
            and quote the reference <code className="font-mono">{error.digest}</code>
          </>
        ) : null}
        .
      </p>
      <div className="flex flex-wrap gap-4 font-medium">
        <ActionButton onClick={reset} className="rounded bg-accent px-3 py-1.5 text-on-accent hover:bg-accent-hover">
          Try again
        </ActionButton>
        <Link href="/" className="py-1.5 text-blue-700 underline">
          Home
        </Link>
        <Link href="/contact" className="py-1.5 text-blue-700 underline">
          Contact us
        </Link>
      </div>
    </section>
  );
}
