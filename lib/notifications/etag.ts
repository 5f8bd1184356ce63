/** Strong ETag of one notification: its version changes with every stored change. */
export function notificationEtag(version: number): string {
  return `"v${version}"`;
}

function entityTags(header: string): string[] {
  return header
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/** RFC 9110 §13.1.1: strong comparison, so weak tags never match. */
export function ifMatchSatisfied(header: string, etag: string): boolean {
  return entityTags(header).some((tag) => tag === "*" || tag === etag);
}

/** RFC 9110 §13.1.2: weak comparison. */
export function ifNoneMatchMatches(header: string, etag: string): boolean {
  return entityTags(header).some((tag) => tag === "*" || tag.replace(/^W\//, "") === etag);
}
