// npm run docs:screenshot: the README's picture of the portal, docs/screenshot.png: the home page of
// the built portal with the demo seed, as a visitor who has not signed in sees it (no credential shows).
import { statSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { ROOT } from "../bench/processes";
import { CHROMIUM_PATH } from "./lighthouse-run";
import { startPortal } from "./portal";

const OUTPUT = join(ROOT, "docs", "screenshot.png");
const VIEWPORT = { width: 1280, height: 860 };

async function main(): Promise<void> {
  const portal = await startPortal();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: "light" });
    await page.goto(portal.origin);
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.screenshot({ path: OUTPUT });
    console.log(`${OUTPUT}: ${Math.round(statSync(OUTPUT).size / 1024)} KiB`);
  } finally {
    await browser.close();
    await portal.stop();
  }
}

main().catch((error: unknown) => {
  console.error(`docs:screenshot could not run: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
