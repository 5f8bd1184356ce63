"use client";

import { signOut } from "next-auth/react";

export function SignOutButton() {
  return (
    <button type="button" onClick={() => signOut({ callbackUrl: "/" })} className="font-medium text-slate-700 hover:text-blue-700 hover:underline">
      Sign out
    </button>
  );
}
