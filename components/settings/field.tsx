import type { ReactNode } from "react";

/** A labelled control with its error right below it, tied together for screen readers. */
export function Field({ id, label, error, children, hint }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="whitespace-pre-line text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export const INPUT_CLASS = "w-full rounded border border-slate-400 bg-white px-3 py-2";
export const BUTTON_CLASS = "rounded-md bg-accent px-4 py-2 font-medium text-on-accent hover:bg-accent-hover disabled:opacity-60";
export const SECONDARY_BUTTON_CLASS = "rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100 disabled:opacity-60";
