"use client";

import type { ButtonHTMLAttributes } from "react";
import { useHydrated } from "./use-hydrated";

type ActionButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type"> & { pending?: boolean };

/**
 * A button whose work is in its click handler, disabled while that work is pending and until the
 * page has hydrated: before that it has no handler, and a click would be lost without a sign.
 */
export function ActionButton({ pending = false, disabled = false, ...props }: ActionButtonProps) {
  const hydrated = useHydrated();
  return <button type="button" {...props} disabled={disabled || pending || !hydrated} />;
}
