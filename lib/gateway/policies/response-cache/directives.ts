/** Cache-Control directives by lower-case name; a directive without a value maps to "". */
export type Directives = ReadonlyMap<string, string>;

function fieldText(value: string | string[] | null | undefined): string {
  if (value === null || value === undefined) return "";
  return Array.isArray(value) ? value.join(",") : value;
}

/** A field that is absent names no directive: most requests send no `Cache-Control`. */
const NO_DIRECTIVES: Directives = new Map();

/** RFC 9111 §5.2: a comma-separated list of `name` or `name=value`, the value a token or a quoted string. */
export function cacheControl(value: string | string[] | null | undefined): Directives {
  if (value === null || value === undefined) return NO_DIRECTIVES;
  const directives = new Map<string, string>();
  for (const match of fieldText(value).matchAll(/([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^,\s]*))?/g)) {
    const name = match[1]!.toLowerCase();
    const raw = match[2] ?? "";
    if (!directives.has(name)) directives.set(name, raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, "$1") : raw);
  }
  return directives;
}

/** A delta-seconds directive's value; undefined when absent, 0 when it is not a number (RFC 9111 §1.2.2 treats it as stale). */
function deltaSeconds(directives: Directives, name: string): number | undefined {
  const value = directives.get(name);
  if (value === undefined) return undefined;
  return /^\d+$/.test(value) ? Number(value) : 0;
}

/** The field names a Vary lists, lower case; `*` stays as it is. */
export function varyNames(value: string | string[] | null | undefined): string[] {
  return [
    ...new Set(
      fieldText(value)
        .split(",")
        .map((name) => name.trim().toLowerCase())
        .filter(Boolean),
    ),
  ].sort();
}

/** RFC 9110 §15.1: the statuses a cache may store without explicit freshness. */
export const CACHEABLE_BY_DEFAULT = new Set([200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]);

export type Storability = { store: true; lifetimeSeconds: number; revalidate: boolean } | { store: false; reason: string };

function header(headers: Record<string, string | string[]>, name: string): string | undefined {
  const value = headers[name];
  return value === undefined ? undefined : fieldText(value);
}

/**
 * Whether an answer may be kept, and for how long: the policy's `ttlSeconds`, bounded by
 * `s-maxage`, else `max-age`, else `Expires`, less the `Age` the answer arrived with. The reasons
 * are what Cache-Status's `detail` reports.
 */
export function storability(status: number, headers: Record<string, string | string[]>, ttlSeconds: number, now: number): Storability {
  if (!CACHEABLE_BY_DEFAULT.has(status)) return { store: false, reason: "status" };
  const directives = cacheControl(headers["cache-control"]);
  if (directives.has("no-store")) return { store: false, reason: "no-store" };
  if (directives.has("private")) return { store: false, reason: "private" };
  if (headers["set-cookie"] !== undefined) return { store: false, reason: "set-cookie" };
  if (varyNames(headers.vary).includes("*")) return { store: false, reason: "vary-star" };
  const bound = deltaSeconds(directives, "s-maxage") ?? deltaSeconds(directives, "max-age") ?? expiresIn(headers, now);
  const lifetimeSeconds = Math.min(ttlSeconds, bound ?? ttlSeconds) - arrivedAge(headers);
  if (lifetimeSeconds <= 0) return { store: false, reason: "stale" };
  return { store: true, lifetimeSeconds, revalidate: directives.has("no-cache") };
}

/** The answer's own `Age`, in seconds: how long it had been in caches before this one. */
export function arrivedAge(headers: Record<string, string | string[]>): number {
  const value = header(headers, "age")?.trim();
  return value && /^\d+$/.test(value) ? Number(value) : 0;
}

/** Seconds from the answer's Date (else now) to its Expires; 0 for an Expires that is not a date, as RFC 9111 §5.3 says. */
function expiresIn(headers: Record<string, string | string[]>, now: number): number | undefined {
  const expires = header(headers, "expires");
  if (expires === undefined) return undefined;
  const at = Date.parse(expires);
  if (Number.isNaN(at)) return 0;
  const date = Date.parse(header(headers, "date") ?? "");
  return Math.max(0, Math.floor((at - (Number.isNaN(date) ? now : date)) / 1000));
}
