/**
 * Whether `error` is Prisma's report (P2002) of a write that a unique constraint or
 * index refused, partial ones included, on either dialect's adapter.
 */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}
