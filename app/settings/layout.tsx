import Link from "next/link";
import type { ReactNode } from "react";

const SECTIONS = [
  { href: "/settings/credentials", label: "Client Credentials" },
  { href: "/settings/requests", label: "Requests" },
];

export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <div className="space-y-6">
      <nav aria-label="Settings">
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
