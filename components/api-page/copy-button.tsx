"use client";

import { type MouseEvent, useState } from "react";
import { ActionButton } from "@/components/action-button";

/**
 * Copies the code of the figure it sits in. It reads the text from the page rather than taking it as
 * a prop, so a sample travels to the browser once, in the HTML, not a second time in the page's data.
 */
export function CopyButton({ label }: { label: string }) {
  const [copied, setCopied] = useState(false);
  async function copy(event: MouseEvent<HTMLButtonElement>) {
    const code = event.currentTarget.closest("figure")?.querySelector("pre")?.textContent ?? "";
    await navigator.clipboard.writeText(code);
    setCopied(true);
    setTimeout(() => setCopied(false), 2_000);
  }
  return (
    <ActionButton
      onClick={copy}
      aria-label={label}
      className="rounded-md border border-slate-400 bg-white px-2 py-1 text-xs font-medium text-slate-800 hover:bg-slate-100"
    >
      <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
    </ActionButton>
  );
}
