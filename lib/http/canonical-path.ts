import { problem, type ProblemError } from "./problem";

/** A path that is canonical as it stands: pchars (RFC 3986 §3.3) without escapes, between single slashes. */
const PLAIN = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
/** A dot segment, also when `;` parameters follow it (`..;`), which Tomcat and others strip before resolving it. */
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:[;/]|$)/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const PCHAR = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/;
/** What a browser escapes in a path (the WHATWG URL path set, with `|`, `^`, `[` and `]`, which RFC 3986 does not allow either). */
const ESCAPED_AS_SENT = /^["<>`{}|^[\]]$/;
const ENCODED_SEPARATOR = /%(?:2F|5C)/i;
/**
 * An escaped control character (%00 to %1F, %7F): no resource's name holds one, and upstreams
 * read it apart, where a C string ends at %00 (nginx and Apache refuse it) and %0D%0A splits a
 * header built from the path.
 */
const ENCODED_CONTROL = /%(?:[01][0-9A-F]|7F)/i;

function malformed(detail: string): ProblemError {
  return problem("malformed-path", { detail });
}

function isDotSegment(segment: string): boolean {
  const bare = segment.split(";", 1)[0];
  return bare === "." || bare === "..";
}

/** Escapes of unreserved characters decoded, every other escape in upper case (RFC 3986 §6.2.2.1-2); invalid ones left to the caller. */
function normalizeEscapes(segment: string, onInvalid: () => void): string {
  return segment.replace(/%([0-9A-Fa-f]{2})?/g, (written, hex: string | undefined) => {
    if (hex === undefined) {
      onInvalid();
      return written;
    }
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : `%${hex.toUpperCase()}`;
  });
}

/** Why a segment, escapes normalized, cannot be read one way only: a separator or a control character inside it, or a dot segment. */
function ambiguity(segment: string): string | undefined {
  if (ENCODED_SEPARATOR.test(segment)) return "A path segment holds an encoded / or \\ (%2F, %5C).";
  if (ENCODED_CONTROL.test(segment)) return "A path segment holds an encoded control character (%00 to %1F, or %7F).";
  if (isDotSegment(segment)) return "The path has a dot segment (., .., written or percent-encoded, also with ;parameters).";
  return undefined;
}

function canonicalSegment(segment: string): string {
  let result = "";
  for (const character of segment) {
    if (character === "%" || PCHAR.test(character)) result += character;
    else if (ESCAPED_AS_SENT.test(character)) result += `%${character.charCodeAt(0).toString(16).toUpperCase()}`;
    else throw malformed(`The path holds ${JSON.stringify(character)}, which no path segment may hold, escaped or not.`);
  }
  result = normalizeEscapes(result, () => {
    throw malformed("The path has a percent sign that is not followed by two hexadecimal digits.");
  });
  const fault = ambiguity(result);
  if (fault) throw malformed(fault);
  if (!result.includes("%")) return result;
  try {
    decodeURIComponent(result);
  } catch {
    throw malformed("The path's percent-encoding does not decode to UTF-8 text.");
  }
  // An upstream that decodes once more (a proxy, then its framework) must still see this one segment.
  const decodedOnce = result.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  if (ambiguity(normalizeEscapes(decodedOnce, () => undefined))) {
    throw malformed("A path segment decodes, percent-decoded twice, to a separator, a control character or a dot segment (double encoding such as %252e).");
  }
  return result;
}

/**
 * The one form of a request's path that routing and the upstream both read
 * (docs/decisions/043): escapes of unreserved characters decoded and the others
 * upper-cased, characters a path may not hold escaped as a browser does. A path
 * that cannot be read one way only is refused with 400 `malformed-path`: no `/` at
 * the start, an empty segment (`//`), a dot segment, an encoded separator or control
 * character, an escape that is not one or does not spell UTF-8, a segment that decodes twice to
 * any of these, a `\` or `#`. A trailing `/` stays.
 */
export function canonicalPath(path: string): string {
  if (PLAIN.test(path) && !path.includes("//") && !DOT_SEGMENT.test(path)) return path;
  if (!path.startsWith("/")) throw malformed("The request target is not a path: send the path only, starting with /, not a full URL or *.");
  const segments = path.slice(1).split("/");
  const last = segments.length - 1;
  return `/${segments
    .map((segment, index) => {
      if (segment === "" && index < last) throw malformed("The path has an empty segment (//).");
      return canonicalSegment(segment);
    })
    .join("/")}`;
}
