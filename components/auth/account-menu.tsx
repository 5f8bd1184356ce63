"use client";

import Link from "next/link";
import { signOut } from "next-auth/react";
import { useEffect, useState } from "react";

type SessionUser = { email?: string; role?: string };

/** Reads the session in the browser so the shared header stays static. */
export function AccountMenu() {
  const [user, setUser] = useState<SessionUser | null | undefined>(undefined);

  useEffect(() => {
    let active = true;
    fetch("/api/auth/session")
      .then((response) => (response.ok ? response.json() : {}))
      .then((session: { user?: SessionUser }) => active && setUser(session.user ?? null))
      .catch(() => active && setUser(null));
    return () => {
      active = false;
    };
  }, []);

  if (user === undefined) return null;
  if (user === null) {
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
      <button type="button" onClick={() => signOut({ callbackUrl: "/" })} className="font-medium text-slate-700 hover:text-blue-700 hover:underline">
        Sign out
      </button>
    </div>
  );
}
