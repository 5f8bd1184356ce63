import type { ReactNode } from "react";
import { SectionNav } from "@/components/section-nav";
import { requireAdmin } from "@/lib/auth/session";

const SECTIONS = [
  { href: "/admin/requests", label: "Access requests" },
  { href: "/admin/credentials", label: "Credentials" },
  { href: "/admin/apis", label: "APIs" },
  { href: "/admin/deprecations", label: "Deprecations" },
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
      <SectionNav label="Admin" sections={SECTIONS} />
      {children}
    </div>
  );
}
