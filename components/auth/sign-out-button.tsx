import { cookies } from "next/headers";
import { csrfTokenFromCookies } from "@/lib/auth/csrf-token";

/** A plain form posted to next-auth, so the header ships no script for it (decision 035). */
export async function SignOutButton() {
  const csrfToken = csrfTokenFromCookies(await cookies());
  return (
    <form method="post" action="/api/auth/signout">
      <input type="hidden" name="csrfToken" value={csrfToken ?? ""} />
      <input type="hidden" name="callbackUrl" value="/" />
      <button type="submit" className="font-medium text-slate-700 hover:text-blue-700 hover:underline">
        Sign out
      </button>
    </form>
  );
}
