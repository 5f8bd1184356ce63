/** A federated credential's subject: exact, or with `*` standing for any run of characters (`repo:acme/billing:ref:refs/heads/*`). */
export function subjectMatches(pattern: string, subject: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`, "s").test(subject);
}
