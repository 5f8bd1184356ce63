// wrk from Debian (apt-get install wrk), the bench's load generator where the machine has it: a
// C program on one thread of its own, which leaves the measured servers more of these machines'
// two cores than autocannon in the bench's process does (docs/benchmarks.md, "The load").
// Requests are drawn ahead into a file that wrk-requests.lua sends in order.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./processes";
import { type LoadGenerator, MOST_REQUESTS_PER_SECOND, QUANTILES, type RawRequest, type Target } from "./target";

const SCRIPT = join(ROOT, "scripts", "bench", "wrk-requests.lua");
/** Requests drawn ahead for a target whose requests may repeat; wrk starts them again at the end. */
const DRAWN_TO_CYCLE = 20_000;
/** As long as autocannon waits, so that a slow answer counts as slow rather than as an error. */
const TIMEOUT = "10s";

type WrkSummary = { requests: number; microseconds: number; failed: number; latencyQuantilesUs: number[] };

function drawn(target: Target, seconds: number): RawRequest[] {
  const { pathname, search } = new URL(target.url);
  const fixed = { method: target.method ?? "GET", path: `${pathname}${search}`, headers: target.headers ?? {}, body: target.body };
  const draw = target.draw;
  if (!draw) return [fixed];
  const count = target.once ? MOST_REQUESTS_PER_SECOND * seconds : DRAWN_TO_CYCLE;
  return Array.from({ length: count }, () => ({ ...fixed, ...draw() }));
}

function field(text: string): string {
  if (/[\t\r\n]/.test(text)) throw new Error(`a bench request holds a tab or a line break, which wrk's request file cannot: ${text.slice(0, 80)}`);
  return text;
}

/** The file wrk-requests.lua reads: the fields every request carries alike, then one request per line. */
function requestFile(requests: readonly RawRequest[]): string {
  const first = requests[0]?.headers ?? {};
  const common = Object.entries(first).filter(([name, value]) => requests.every((request) => request.headers?.[name] === value));
  const commonNames = new Set(common.map(([name]) => name));
  const headerFields = (headers: [string, string][]) => headers.map(([name, value]) => field(`${name}: ${value}`));
  const lines = requests.map(({ method = "GET", path = "/", body = "", headers = {} }) =>
    [field(method), field(path), field(body), ...headerFields(Object.entries(headers).filter(([name]) => !commonNames.has(name)))].join("\t"),
  );
  return [headerFields(common).join("\t"), ...lines].join("\n");
}

export function wrkGenerator(wrk: string): LoadGenerator {
  return {
    async run(target, connections, seconds) {
      const dir = mkdtempSync(join(tmpdir(), "gatehouse-bench-wrk-"));
      try {
        const file = join(dir, "requests.txt");
        writeFileSync(file, requestFile(drawn(target, seconds)));
        const args = ["-t1", `-c${connections}`, `-d${seconds}s`, "--timeout", TIMEOUT, "-s", SCRIPT, new URL(target.url).origin, "--", file];
        const { stdout } = await promisify(execFile)(wrk, [...args, target.once ? "once" : "cycle"], { maxBuffer: 1 << 20 });
        const summary = JSON.parse(stdout.trim().split("\n").at(-1)!) as WrkSummary;
        if (summary.latencyQuantilesUs.length !== QUANTILES) throw new Error(`wrk printed ${summary.latencyQuantilesUs.length} latency quantiles`);
        return {
          requests: summary.requests,
          seconds: summary.microseconds / 1e6,
          failed: summary.failed,
          latencyQuantilesMs: summary.latencyQuantilesUs.map((microseconds) => microseconds / 1000),
        };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
