import type { Metadata, Viewport } from "next";
import { cookies } from "next/headers";
import type { CSSProperties, ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import { currentUser } from "@/lib/auth/session";
import { accentColours } from "@/lib/branding/accent";
import { brandAssetHref } from "@/lib/branding/brand-asset";
import { parseTheme, THEME_COOKIE } from "@/lib/branding/theme";
import { config } from "@/lib/config";
import "./globals.css";

export function generateMetadata(): Metadata {
  const { brand } = config();
  return {
    title: { default: brand.name, template: `%s · ${brand.name}` },
    description: `Discover APIs, get credentials and call them through the ${brand.name} gateway.`,
    icons: { icon: brandAssetHref(brand, "favicon") },
  };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

// Each page carries its response's CSP nonce on its scripts, so no page can be prerendered.
export const dynamic = "force-dynamic";

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { brand } = config();
  const { accent, onAccent, accentHover } = accentColours(brand.accent);
  // A chosen theme is rendered on the server, so the page never shows the other one first; without a choice, CSS follows the system.
  const [cookieStore, user] = await Promise.all([cookies(), currentUser()]);
  const theme = parseTheme(cookieStore.get(THEME_COOKIE)?.value);
  return (
    <html lang="en" data-theme={theme} style={{ "--accent": accent, "--on-accent": onAccent, "--accent-hover": accentHover } as CSSProperties}>
      <body className="min-h-screen bg-slate-50 font-sans text-slate-900 antialiased">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:bg-white focus:p-2">
          Skip to content
        </a>
        <SiteHeader brand={brand} theme={theme} user={user} />
        <main id="main" className="mx-auto max-w-6xl px-4 py-8">
          {children}
        </main>
      </body>
    </html>
  );
}
