import { GATEHOUSE_MARK_PATH } from "@/lib/branding/gatehouse-mark";

/** Gatehouse's mark in the current text colour; decorative, beside the portal's name. */
export function GatehouseMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className={className}>
      <path fill="currentColor" fillRule="evenodd" d={GATEHOUSE_MARK_PATH} />
    </svg>
  );
}
