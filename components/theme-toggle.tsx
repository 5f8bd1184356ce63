"use client";

import { type ReactNode, useSyncExternalStore } from "react";
import { type Theme, themeCookie } from "@/lib/branding/theme";
import { ActionButton } from "@/components/action-button";

const SYSTEM_DARK = "(prefers-color-scheme: dark)";

/** The theme on screen: the visitor's choice on <html>, else the system's. */
function shownTheme(): Theme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === "light" || chosen === "dark") return chosen;
  return matchMedia(SYSTEM_DARK).matches ? "dark" : "light";
}

function subscribe(onChange: () => void): () => void {
  const system = matchMedia(SYSTEM_DARK);
  const choice = new MutationObserver(onChange);
  system.addEventListener("change", onChange);
  choice.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => {
    system.removeEventListener("change", onChange);
    choice.disconnect();
  };
}

/**
 * Switches between the light and dark theme and remembers the choice in a cookie, which the
 * server reads to render the next page in it. Which icon shows is CSS's business, so it is right
 * before this script runs; the pressed state follows once it does. The icons come from the server
 * as children, so the icon library stays out of the page's script.
 */
export function ThemeToggle({ chosen, children }: { chosen: Theme | undefined; children: ReactNode }) {
  const theme = useSyncExternalStore(subscribe, shownTheme, () => chosen);
  function toggle() {
    const next: Theme = shownTheme() === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    // biome-ignore lint/suspicious/noDocumentCookie: one fixed cookie, and the Cookie Store API is missing from browsers the portal supports
    document.cookie = themeCookie(next);
  }
  return (
    <ActionButton
      onClick={toggle}
      aria-pressed={theme === undefined ? undefined : theme === "dark"}
      aria-label="Dark theme"
      title="Dark theme"
      className="rounded-md border border-slate-300 p-1.5 text-slate-700 hover:bg-slate-100"
    >
      {children}
    </ActionButton>
  );
}
