import Link from "next/link";
import { AccountMenu } from "@/components/auth/account-menu";

const NAVIGATION = [
  { href: "/apis", label: "APIs" },
  { href: "/settings", label: "Settings" },
  { href: "/contact", label: "Contact Us" },
];

export function SiteHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <Link href="/" className="text-lg font-semibold text-slate-900">
          Gatehouse
        </Link>
        <nav aria-label="Main">
          <ul className="flex flex-wrap gap-4 text-sm font-medium">
            {NAVIGATION.map((item) => (
              <li key={item.href}>
                <Link href={item.href} className="rounded px-1 py-1 text-slate-700 hover:text-blue-700 hover:underline">
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <AccountMenu />
      </div>
    </header>
  );
}
