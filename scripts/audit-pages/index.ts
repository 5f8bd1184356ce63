// npm run audit:pages: Lighthouse against the built portal (docs/benchmarks.md, "Page speed"). It starts the
// production server itself, audits each page AUDIT_RUNS times (5 by default, the number Lighthouse's own variability guide
// recommends for a median) in turns, and prints
// the medians and which targets are met. A missed target is reported, not an error: the exit code
// is 1 only when the audit cannot run. AUDIT_REPORTS=<dir> keeps every run's HTML report there.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { launchChromium, type PageRun, runLighthouse } from "./lighthouse-run";
import { startPortal } from "./portal";
import { PAGES, type PageResult, report } from "./report";

const RUNS = Number(process.env.AUDIT_RUNS ?? 5);
const REPORTS_DIR = process.env.AUDIT_REPORTS;

function reportFile(pagePath: string, run: number): string {
  const name = pagePath === "/" ? "home" : pagePath.slice(1).replace(/[^a-z0-9]+/gi, "-");
  return join(REPORTS_DIR!, `${name}-${run}.html`);
}

/** The server's first answer to each page loads that page's code; no run should pay for it. */
async function warmUp(origin: string): Promise<void> {
  for (const page of PAGES) {
    const response = await fetch(`${origin}${page.path}`);
    if (!response.ok) throw new Error(`${page.path} answered ${response.status}`);
    await response.arrayBuffer();
  }
}

/** Lighthouse sometimes loses a trace on a busy machine (NO_NAVSTART and the like); one more try, then the audit gives up. */
async function auditOnce(url: string, chrome: Awaited<ReturnType<typeof launchChromium>>): Promise<PageRun> {
  try {
    return await runLighthouse(url, chrome);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}; trying again\n`);
    return runLighthouse(url, chrome);
  }
}

async function main(): Promise<void> {
  if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error("AUDIT_RUNS must be a whole number of at least 1");
  if (REPORTS_DIR) mkdirSync(REPORTS_DIR, { recursive: true });
  const portal = await startPortal();
  const chrome = await launchChromium().catch(async (error: unknown) => {
    await portal.stop();
    throw error;
  });
  try {
    await warmUp(portal.origin);
    const runs = new Map<string, PageRun[]>(PAGES.map((page) => [page.path, []]));
    // In turns, so that a busy moment of the machine falls on every page alike.
    for (let run = 1; run <= RUNS; run++) {
      for (const page of PAGES) {
        process.stderr.write(`run ${run}/${RUNS}: ${page.path}\n`);
        const result = await auditOnce(`${portal.origin}${page.path}`, chrome);
        runs.get(page.path)!.push(result);
        if (REPORTS_DIR) writeFileSync(reportFile(page.path, run), result.html);
      }
    }
    const results: PageResult[] = PAGES.map((page) => ({ page, runs: runs.get(page.path)! }));
    console.log(report(results, RUNS).text);
  } finally {
    chrome.kill();
    await portal.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`audit:pages could not run: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
