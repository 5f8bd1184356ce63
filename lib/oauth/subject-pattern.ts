/** At most this many `*` in a trusted subject: each one is a part to find in the token's `sub`. */
export const MAX_SUBJECT_STARS = 8;

/**
 * A federated credential's subject: exact, or with `*` standing for any run of characters
 * (`repo:acme/billing:ref:refs/heads/*`). The parts between stars are found leftmost first,
 * which is a match whenever one exists, so matching takes one pass over the subject per part.
 */
export function subjectMatches(pattern: string, subject: string): boolean {
  const parts = pattern.split("*");
  const prefix = parts[0]!;
  if (parts.length === 1) return prefix === subject;
  const suffix = parts.at(-1)!;
  const end = subject.length - suffix.length;
  if (end < prefix.length || !subject.startsWith(prefix) || !subject.endsWith(suffix)) return false;
  let position = prefix.length;
  for (const part of parts.slice(1, -1)) {
    const found = subject.indexOf(part, position);
    if (found === -1 || found + part.length > end) return false;
    position = found + part.length;
  }
  return true;
}
