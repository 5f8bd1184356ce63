"use client";

import type { ReactNode } from "react";
import { ActionButton } from "./action-button";

/**
 * A client form's submit button, disabled while its request is pending and until the page has
 * hydrated. Before that the form has no handler: submitted natively, it would send its fields in
 * the URL (a password into the address bar, history and access logs) and lose what was typed. A
 * disabled default button also keeps Enter from submitting it (HTML, implicit submission).
 */
export function SubmitButton({ pending = false, className, children }: { pending?: boolean; className: string; children: ReactNode }) {
  return (
    <ActionButton type="submit" pending={pending} className={className}>
      {children}
    </ActionButton>
  );
}
