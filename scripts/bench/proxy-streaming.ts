// The proxy workload's streaming figures for one server: 64 MiB down (/big,
// checked by length and digest) and up (/upload, checked by the count the
// upstream answers), each with its time and how much the server's RSS grows
// meanwhile (the peak, sampled every 50 ms, minus the RSS just before), and the
// delay from sending a request to /sse to its first event.
import { createHash } from "node:crypto";
import { type IncomingMessage, request as httpRequest } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { shuffledIndexes } from "./load";
import { STREAMING_TRIES } from "./options";
import { rssMegabytes, type Server } from "./processes";
import { BIG_BYTES, bigBodyDigest, bigChunks } from "./proxy-big-body";

export type Transfer = { seconds: number; rssGrowthMb: number; intact: boolean };
/** `firstEventMs` is infinite when no event came. */
export type Streaming = { down: Transfer; up: Transfer; firstEventMs: number };

const DIGEST = bigBodyDigest();

function answer(url: string, init: { method?: string; headers: Record<string, string | number> }, body?: Readable): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { ...init, agent: false }, resolve);
    req.on("error", reject);
    if (body) pipeline(body, req).catch(reject);
    else req.end();
  });
}

async function downloadIntact(url: string, authorization: string): Promise<boolean> {
  const res = await answer(url, { headers: { authorization } });
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of res) {
    bytes += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return res.statusCode === 200 && bytes === BIG_BYTES && hash.digest("hex") === DIGEST;
}

async function uploadIntact(url: string, authorization: string): Promise<boolean> {
  const headers = { authorization, "content-type": "application/octet-stream", "content-length": BIG_BYTES };
  const res = await answer(url, { method: "POST", headers }, Readable.from(bigChunks()));
  let text = "";
  for await (const chunk of res) text += String(chunk);
  return res.statusCode === 200 && text === JSON.stringify({ bytes: BIG_BYTES });
}

async function firstEventMs(url: string, authorization: string): Promise<number> {
  const startedAt = performance.now();
  const res = await answer(url, { headers: { authorization, accept: "text/event-stream" } });
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
  let text = "";
  for await (const chunk of res) {
    text += String(chunk);
    // An event ends with a blank line; the rest of the stream is not needed.
    if (text.includes("\n\n")) {
      res.destroy();
      return performance.now() - startedAt;
    }
  }
  throw new Error(`${url} ended before its first event`);
}

/** A failed transfer counts as not intact; its time and memory still show. */
async function transfer(pid: number, run: () => Promise<boolean>): Promise<Transfer> {
  const before = rssMegabytes(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMegabytes(pid))), 50);
  const startedAt = performance.now();
  const intact = await run().catch(() => false);
  clearInterval(sampler);
  return { seconds: (performance.now() - startedAt) / 1000, rssGrowthMb: Math.max(peak, rssMegabytes(pid)) - before, intact };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

/** A median of the tries' times and growths: neither one lucky try nor one unlucky one on these shared machines. Intact only if every try was. */
function typical(tries: Transfer[]): Transfer {
  return { seconds: median(tries.map((t) => t.seconds)), rssGrowthMb: median(tries.map((t) => t.rssGrowthMb)), intact: tries.every((t) => t.intact) };
}

export type StreamingContender = { name: string; server: Server };

async function tryOnce({ name, server }: StreamingContender, prefix: string, authorization: string, turn: number): Promise<Streaming> {
  process.stderr.write(`streaming through ${name} (try ${turn + 1} of ${STREAMING_TRIES})...\n`);
  const pid = server.child.pid!;
  const url = (path: string) => `${server.origin}${prefix}${path}`;
  return {
    down: await transfer(pid, () => downloadIntact(url("/big"), authorization)),
    up: await transfer(pid, () => uploadIntact(url("/upload"), authorization)),
    firstEventMs: await firstEventMs(url("/sse"), authorization).catch(() => Number.POSITIVE_INFINITY),
  };
}

/**
 * Each contender's streaming figures, each the median of STREAMING_TRIES tries;
 * `prefix` is where the servers' paths start, e.g. `/gw/sso-qa/{api}`. The tries are
 * taken in turns, each turn in a new random order, as the load's rounds are: the
 * machine's drift then falls on every contender alike (docs/benchmarks.md).
 */
export async function measureStreamingInTurns(contenders: readonly StreamingContender[], prefix: string, token: string): Promise<Streaming[]> {
  const authorization = `Bearer ${token}`;
  const tries = contenders.map((): Streaming[] => []);
  for (let turn = 0; turn < STREAMING_TRIES; turn++) {
    for (const index of shuffledIndexes(contenders.length)) tries[index]!.push(await tryOnce(contenders[index]!, prefix, authorization, turn));
  }
  return tries.map((each) => ({
    down: typical(each.map((t) => t.down)),
    up: typical(each.map((t) => t.up)),
    firstEventMs: median(each.map((t) => t.firstEventMs)),
  }));
}
