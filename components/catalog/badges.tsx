import type { CredentialType } from "@/lib/db";
import { CREDENTIAL_TYPE_LABELS } from "@/lib/catalog/catalog-filter";

export function AccessBadge({ isPublic }: { isPublic: boolean }) {
  return isPublic ? (
    <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">Public</span>
  ) : (
    <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">Protected</span>
  );
}

export function CredentialTypeBadge({ type }: { type: CredentialType }) {
  return <span className="rounded-full bg-indigo-100 px-2 py-0.5 text-xs font-semibold text-indigo-900">{CREDENTIAL_TYPE_LABELS[type]}</span>;
}
