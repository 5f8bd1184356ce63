import Link from "next/link";
import type { ReactNode } from "react";
import { requireAdmin } from "@/lib/auth/session";

const SECTIONS = [
  { href: "/admin/requests", label: "Access requests" },
  { href: "/admin/credentials", label: "Credentials" },
  { href: "/admin/apis", label: "APIs" },
  { href: "/admin/environments", label: "Environments" },
  { href: "/admin/users", label: "Users" },
  { href: "/admin/notifications", label: "Notifications" },
  { href: "/admin/audit", label: "Audit log" },
  { href: "/admin/usage", label: "Usage" },
];

export default async function AdminLayout({ children }: { children: ReactNode }) {
  await requireAdmin("/admin");
  return (
    <div className="space-y-6">
      <nav aria-label="Admin">
        <ul className="flex flex-wrap gap-4 border-b border-slate-200 pb-2 text-sm font-medium">
          {SECTIONS.map((section) => (
            <li key={section.href}>
              <Link href={section.href} className="text-slate-700 hover:text-blue-700 hover:underline">
                {section.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </div>
  );
}
