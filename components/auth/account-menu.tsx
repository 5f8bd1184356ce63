import { Link } from "@/components/link";
import type { PortalUser } from "@/lib/actors/portal-user";
import { SignOutButton } from "./sign-out-button";

/** Rendered with the page, so the header has its final width at first paint and the navigation never moves. */
export function AccountMenu({ user }: { user: PortalUser | null }) {
  if (!user) {
    return (
      <Link href="/login" className="rounded px-1 py-1 text-sm font-medium text-slate-700 hover:text-blue-700 hover:underline">
        Sign in
      </Link>
    );
  }
  return (
    <div className="flex items-center gap-3 text-sm">
      {user.role === "ADMIN" ? (
        <Link href="/admin" className="font-medium text-slate-700 hover:text-blue-700 hover:underline">
          Admin
        </Link>
      ) : null}
      <span className="text-slate-600">{user.email}</span>
      <SignOutButton />
    </div>
  );
}
