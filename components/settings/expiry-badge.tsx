const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** Warns from a week before a secret expires. */
export function ExpiryBadge({ expiresAt, now = new Date() }: { expiresAt: string | null; now?: Date }) {
  if (!expiresAt || new Date(expiresAt).getTime() - now.getTime() > WEEK_MS) return null;
  return <span className="rounded bg-amber-200 px-2 py-0.5 text-xs font-semibold text-amber-950">Expires soon</span>;
}
