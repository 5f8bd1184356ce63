import Link from "next/link";
import { currentUser } from "@/lib/auth/session";
import { apiPageHref, signInHref } from "./hrefs";

const CLASS = "inline-block rounded-md bg-accent px-4 py-2 font-medium text-on-accent hover:bg-accent-hover";

/**
 * The shortest way to a first call: straight to the Reference with a test token, through sign-in when needed.
 * `apiName` tells screen readers which API a link among several tries.
 */
export async function TryItLink({ slug, env, version, apiName }: { slug: string; env?: string; version?: string; apiName?: string }) {
  const target = apiPageHref(slug, { tab: "reference", env, version, tryIt: true });
  const user = await currentUser();
  return (
    <Link href={user ? target : signInHref(target)} className={CLASS}>
      {user ? "Try it now" : "Sign in and try it"}
      {apiName && <span className="sr-only">{` — ${apiName}`}</span>}
    </Link>
  );
}
