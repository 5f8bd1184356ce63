import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Documents and comments state what is, not how the team got there: a measurement's
 * history belongs in git; docs/benchmarks.md holds the current figures. These are the
 * words that name a past stage of work: a numbered "round" of a decision, and a work
 * "session". A bench's rounds of a measurement ("three rounds of 8 s", BENCH_ROUNDS) and
 * a user's sign-in session are not history and must never match.
 */
const HISTORY_PATTERNS: readonly RegExp[] = [
  // "round 3", "round two"
  /\bround\s+(\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b/i,
  // "Fourth round", "the seventh round's", "this round", "earlier rounds"; never a round trip
  /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\d+(st|nd|rd|th)|last|previous|next|earlier|later|this|that|final)\s+rounds?\b(?!['’]?[- ]?trips?\b)/i,
  // "rounds of decision 007"
  /\brounds?\s+of\s+(the\s+)?decisions?\b/i,
  // "this session", "the fifth session", "the last session's": a stretch of work, not a sign-in
  /\b(this|that|each|one|the\s+(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|previous|next|last|current))\s+session(s|['’]s)?\b/i,
  /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|earlier|later|previous|next|last)\s+session(s|['’]s)?\b/i,
  // "the session's first machine", "the fifth session's machine"
  /\bsessions?['’]?s?\s+(\w+\s+)?machines?\b/i,
  // "as the session found it", "the session went on"
  /\bthe\s+session\s+(found|went|measured|ran|left)\b/i,
  // "session notes", "session 4", "four other sessions built and tested on it"
  /\bsessions?\s+(note|notes|work|log|logs)\b/i,
  /\bsession\s+#?\d+\b/i,
  /\bother\s+sessions\s+(built|ran|tested|worked)\b/i,
];

const ROOT = join(import.meta.dirname, "..", "..");
const SCANNED = ["docs", "lib", "server", "prisma", "README.md", "ARCHITECTURE.md"];
const SKIPPED = new Set(["lib/generated", "node_modules"]);
const TEXT = /\.(md|ts|tsx|mjs|prisma|sql)$/;

function filesUnder(path: string): string[] {
  const absolute = join(ROOT, path);
  if (SKIPPED.has(path) || !existsSync(absolute)) return [];
  if (!statSync(absolute).isDirectory()) return TEXT.test(path) ? [path] : [];
  return readdirSync(absolute).flatMap((name) => filesUnder(`${path}/${name}`));
}

/** Each line that uses a history word, as `file:line: text`. */
function historyWords(file: string, text: string): string[] {
  return text.split("\n").flatMap((line, index) => (HISTORY_PATTERNS.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
}

function readIfPresent(file: string): string {
  // Others edit the tree while this runs; a file gone since the listing has nothing to say.
  try {
    return readFileSync(join(ROOT, file), "utf8");
  } catch {
    return "";
  }
}

describe("history words", () => {
  it("are told from a bench's rounds and a sign-in session", () => {
    const flagged = [
      'decision 007, "Fourth round"',
      "in the seventh round's final code",
      "two rounds of decision 007",
      "taking turns: round 1 under load, round 2 quiet",
      "the earlier rounds' timings",
      "## Fifth round (24 Nov 2026, third session)",
      "This session's machine ran bare node:http",
      "the fifth session's machine",
      "The session's first machine",
      "as the session found it",
      "half the last session's speed",
      "while four other sessions built and tested on it",
    ];
    const allowed = [
      "three rounds of 8 s in turns after a warm-up",
      "two or three round trips to PostgreSQL",
      "the second round trip of an update",
      "`BENCH_ROUNDS` for the rounds of each mix",
      "quick runs are one round; order within a round mattered",
      "minted on the server from the session",
      "Portal mutations check the session and the role on the server",
      "The lock belongs to a session of its own and ends with it",
      "sessions end after a while or when you sign out",
      "const session = await getServerSession(authOptions());",
      "401 without a session, 403 without the role",
    ];
    expect(flagged.filter((line) => historyWords("example", line).length === 0)).toEqual([]);
    expect(allowed.filter((line) => historyWords("example", line).length > 0)).toEqual([]);
  });

  it("appear in no document, comment or schema", () => {
    const files = SCANNED.flatMap(filesUnder);
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => historyWords(file, readIfPresent(file)));
    expect(found, "state what is; docs/benchmarks.md holds the current figures, git their history").toEqual([]);
  });
});
