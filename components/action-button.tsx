"use client";

import type { ButtonHTMLAttributes } from "react";
import { useHydrated } from "./use-hydrated";

type ActionButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type"> & { type?: "button" | "submit"; pending?: boolean };

/**
 * A button whose work is in a handler (its click handler, or its form's submit handler),
 * disabled while that work is pending and until the page has hydrated: before that there is no
 * handler, and a click would be lost without a sign.
 */
export function ActionButton({ type = "button", pending = false, disabled = false, ...props }: ActionButtonProps) {
  const hydrated = useHydrated();
  return <button type={type} {...props} disabled={disabled || pending || !hydrated} />;
}
