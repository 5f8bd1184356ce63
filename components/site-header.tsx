import { BookOpen, Mail, Moon, Settings, Sun } from "lucide-react";
import { Link } from "@/components/link";
import { AccountMenu } from "@/components/auth/account-menu";
import { GatehouseMark } from "@/components/gatehouse-mark";
import { ThemeToggle } from "@/components/theme-toggle";
import type { PortalUser } from "@/lib/actors/portal-user";
import { brandAssetHref } from "@/lib/branding/brand-asset";
import type { Theme } from "@/lib/branding/theme";
import type { Brand } from "@/lib/config";

const NAVIGATION = [
  { href: "/apis", label: "APIs", Icon: BookOpen },
  { href: "/settings", label: "Settings", Icon: Settings },
  { href: "/contact", label: "Contact Us", Icon: Mail },
];

/** The portal's name beside the operator's logo, or beside Gatehouse's mark in the accent colour. */
function Wordmark({ brand }: { brand: Brand }) {
  const logo = brandAssetHref(brand, "logo");
  return (
    <Link href="/" className="flex items-center gap-2 text-lg font-semibold tracking-tight text-slate-900">
      {logo ? (
        // biome-ignore lint/performance/noImgElement: the operator's image may come from any origin, which next/image needs listed at build time
        <img src={logo} alt="" className="h-8 w-auto max-w-40" />
      ) : (
        <GatehouseMark className="h-7 w-7 text-accent" />
      )}
      <span>{brand.name}</span>
    </Link>
  );
}

export function SiteHeader({ brand, theme, user }: { brand: Brand; theme: Theme | undefined; user: PortalUser | null }) {
  return (
    <header className="border-t-4 border-b border-t-accent border-b-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <Wordmark brand={brand} />
        <nav aria-label="Main">
          <ul className="flex flex-wrap gap-4 text-sm font-medium">
            {NAVIGATION.map(({ href, label, Icon }) => (
              <li key={href}>
                <Link href={href} className="flex items-center gap-1.5 rounded px-1 py-1 text-slate-700 hover:text-blue-700 hover:underline">
                  <Icon aria-hidden="true" className="h-4 w-4" />
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-3">
          <AccountMenu user={user} />
          <ThemeToggle chosen={theme}>
            <Moon aria-hidden="true" className="h-4 w-4 dark:hidden" />
            <Sun aria-hidden="true" className="hidden h-4 w-4 dark:block" />
          </ThemeToggle>
        </div>
      </div>
    </header>
  );
}
