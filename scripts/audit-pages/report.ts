// What `npm run audit:pages` prints: one row of medians per page, the targets met or not, and
// for a category under target the audits that cost it points, from the page's median run.
import { CATEGORIES, type Category, type PageRun } from "./lighthouse-run";

export type AuditedPage = { name: string; path: string; reference?: boolean };

export const PAGES: readonly AuditedPage[] = [
  { name: "home", path: "/" },
  { name: "catalog", path: "/apis" },
  { name: "API page", path: "/apis/notifications" },
  { name: "Reference tab", path: "/apis/notifications?tab=reference", reference: true },
];

export const TARGETS = { score: 95, referenceCls: 0.01, referenceTbtMs: 300 };

export type PageResult = { page: AuditedPage; runs: PageRun[] };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

type Medians = { scores: Record<Category, number>; cls: number; tbtMs: number; jsBytes: number };

function medians(runs: PageRun[]): Medians {
  return {
    scores: Object.fromEntries(CATEGORIES.map((category) => [category, median(runs.map((run) => run.scores[category]))])) as Record<Category, number>,
    cls: median(runs.map((run) => run.cls)),
    tbtMs: median(runs.map((run) => run.tbtMs)),
    jsBytes: median(runs.map((run) => run.jsBytes)),
  };
}

/** The run whose performance score is the median one: the run the diagnostics describe. */
function medianRun(runs: PageRun[]): PageRun {
  return [...runs].sort((a, b) => a.scores.performance - b.scores.performance)[Math.floor(runs.length / 2)]!;
}

function missedTargets(page: AuditedPage, m: Medians): string[] {
  const missed = CATEGORIES.filter((category) => m.scores[category] < TARGETS.score).map((category) => `${category} ${m.scores[category]} < ${TARGETS.score}`);
  if (page.reference && m.cls > TARGETS.referenceCls) missed.push(`CLS ${m.cls.toFixed(3)} > ${TARGETS.referenceCls}`);
  if (page.reference && m.tbtMs > TARGETS.referenceTbtMs) missed.push(`TBT ${Math.round(m.tbtMs)} ms > ${TARGETS.referenceTbtMs} ms`);
  return missed;
}

/** The weighted audits of `category` that did not pass, with Lighthouse's own figure for each. */
function failingAudits(run: PageRun, category: Category): string[] {
  const refs = run.lhr.categories[category]?.auditRefs ?? [];
  return refs
    .filter((ref) => ref.weight > 0)
    .map((ref) => run.lhr.audits[ref.id])
    .filter((audit) => audit && audit.score !== null && audit.score < 0.9)
    .map((audit) => `${audit!.id}: ${audit!.title}${audit!.displayValue ? ` (${audit!.displayValue})` : ""}`);
}

/** Lighthouse's "JavaScript execution time" per script, the largest first. */
function slowestScripts(run: PageRun): string[] {
  const items = (run.lhr.audits["bootup-time"]?.details as { items?: { url: string; total: number }[] } | undefined)?.items ?? [];
  return items.slice(0, 3).map((item) => `${Math.round(item.total)} ms  ${item.url}`);
}

const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

export function report(results: PageResult[], runsPerPage: number): { text: string; allMet: boolean } {
  const lines = [
    "",
    `Lighthouse 12 (mobile preset, simulated throttling), ${runsPerPage} run${runsPerPage === 1 ? "" : "s"} per page taken in turns; each cell is the median of the runs.`,
    "Performance and TBT move with the machine's load: on a shared machine compare runs made together.",
    "",
    "| page | performance / accessibility / best practices / SEO | CLS | TBT | JS transferred |",
    "|---|---|---|---|---|",
  ];
  const verdicts: string[] = [];
  let allMet = true;
  for (const { page, runs } of results) {
    const m = medians(runs);
    lines.push(
      `| \`${page.path}\` | ${CATEGORIES.map((category) => m.scores[category]).join(" / ")} | ${m.cls.toFixed(3)} | ${Math.round(m.tbtMs)} ms | ${kib(m.jsBytes)} |`,
    );
    const missed = missedTargets(page, m);
    if (missed.length === 0) {
      verdicts.push(`${page.name} (${page.path}): targets met`);
      continue;
    }
    allMet = false;
    verdicts.push(`${page.name} (${page.path}): NOT met: ${missed.join("; ")}`);
    const run = medianRun(runs);
    for (const category of CATEGORIES.filter((c) => m.scores[c] < TARGETS.score)) {
      verdicts.push(...failingAudits(run, category).map((line) => `    ${category} · ${line}`));
    }
    if (m.scores.performance < TARGETS.score || (page.reference && m.tbtMs > TARGETS.referenceTbtMs)) {
      verdicts.push(...slowestScripts(run).map((line) => `    script time · ${line}`));
    }
  }
  lines.push(
    "",
    `Targets: every score >= ${TARGETS.score}; on the Reference tab also CLS <= ${TARGETS.referenceCls} and TBT <= ${TARGETS.referenceTbtMs} ms.`,
    ...verdicts,
    allMet ? "All targets met." : "Some targets NOT met (see above).",
  );
  return { text: lines.join("\n"), allMet };
}
