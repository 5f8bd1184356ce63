// One Lighthouse 12 run of one page, with its default (mobile) preset, in a Chromium started once per audit.
import { type LaunchedChrome, launch } from "chrome-launcher";
import lighthouse from "lighthouse";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof CATEGORIES)[number];

/** What an audit needs of one run; `lhr` keeps the rest for the diagnostics. */
export type PageRun = {
  scores: Record<Category, number>;
  cls: number;
  tbtMs: number;
  jsBytes: number;
  lhr: LighthouseResult;
  html: string;
};

type LighthouseResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"];

/** Debian's Chromium (the path Playwright uses too); Lighthouse never downloads a browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function launchChromium(): Promise<LaunchedChrome> {
  return launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update"],
  });
}

function scriptBytes(lhr: LighthouseResult): number {
  const items = (lhr.audits["resource-summary"]?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ?? [];
  return items.find((item) => item.resourceType === "script")?.transferSize ?? 0;
}

export async function runLighthouse(url: string, chrome: LaunchedChrome): Promise<PageRun> {
  const result = await lighthouse(url, { port: chrome.port, output: "html", logLevel: "error", onlyCategories: [...CATEGORIES] });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(
    CATEGORIES.map((category) => {
      const score = lhr.categories[category]?.score;
      if (score === null || score === undefined) throw new Error(`Lighthouse gave no ${category} score for ${url}`);
      return [category, Math.round(score * 100)];
    }),
  ) as Record<Category, number>;
  return {
    scores,
    cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0,
    tbtMs: lhr.audits["total-blocking-time"]?.numericValue ?? 0,
    jsBytes: scriptBytes(lhr),
    lhr,
    html: String(result.report),
  };
}
