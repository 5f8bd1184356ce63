"use client";

import { useState } from "react";

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard.writeText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 2_000);
  }
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={label}
      className="rounded-md border border-slate-400 bg-white px-2 py-1 text-xs font-medium text-slate-800 hover:bg-slate-100"
    >
      <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
    </button>
  );
}
