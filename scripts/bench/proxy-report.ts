// What `npm run bench` prints for the proxy workload: every contender's row, the
// ratios within the run with their verdicts, and the streaming figures.
import { availableParallelism } from "node:os";
import { CONNECTIONS, PROXY_CLIENTS, PROXY_ROUNDS, PROXY_SECONDS, STREAMING_TRIES } from "./options";
import type { Figures, ProxyResults } from "./proxy-bench";
import type { Streaming, Transfer } from "./proxy-streaming";
import { type Measurement, row, verdict } from "./report";

/** The proxies compared, and the upstream itself. */
type Role = Exclude<keyof ProxyResults, "cachedGet" | "jsonPost" | "validatedPost" | "floor">;

const NAMES: Record<Role, string> = {
  gatewayOnly: "gateway-only process",
  gatewayCluster: `gateway-only, ${availableParallelism()} processes`,
  fullServer: "Gatehouse (npm start)",
  handWritten: "hand-written proxy",
  haproxy: "HAProxy",
  upstream: "upstream directly",
};

function transfer(t: Transfer): string {
  return `${t.seconds.toFixed(2).padStart(6)} s  RSS ${`+${Math.round(t.rssGrowthMb)}`.padStart(4)} MB ${t.intact ? "intact    " : "NOT intact"}`;
}

function firstEvent(ms: number): string {
  return Number.isFinite(ms) ? `${ms.toFixed(1)} ms` : "no event";
}

function streamingRow(name: string, s: Streaming): string {
  return `${name.padEnd(26)}${transfer(s.down)}   ${transfer(s.up)}   ${firstEvent(s.firstEventMs).padStart(9)}`;
}

function loadLines(results: ProxyResults, contenders: [Role, Figures][]): string[] {
  const { gatewayOnly, fullServer, handWritten, haproxy } = results;
  const rps = (figures: Figures) => figures.load.rps;
  const ratio = (of: Figures, to: Figures, target: number) =>
    `${(rps(of) / rps(to)).toFixed(2)}x (target >= ${target}x) ${verdict(rps(of) / rps(to) >= target)}`;
  const failed = contenders.filter(([, figures]) => figures.load.failed > 0);
  const errors = failed.length === 0 ? "errors 0 met" : `errors in ${failed.map(([role, f]) => `${NAMES[role]} ${f.load.failed}`).join(", ")} NOT met`;
  const rss = gatewayOnly.load.rssMb;
  return [
    `gateway-only / hand-written: ${ratio(gatewayOnly, handWritten, 1.3)}; gateway-only / HAProxy: ${haproxy ? ratio(gatewayOnly, haproxy, 0.45) : "HAProxy skipped"};` +
      ` p99 ${gatewayOnly.load.p99.toFixed(2)} vs ${handWritten.load.p99.toFixed(2)} ms ${verdict(gatewayOnly.load.p99 <= handWritten.load.p99)}`,
    `full server / hand-written: ${ratio(fullServer, handWritten, 1.0)}; ${errors}; gateway-only RSS under load ${Math.round(rss)} MB (target <= 150 MB) ${verdict(rss <= 150)}`,
    ...clusterLines(results),
    `gateway-only / hand-written round by round: ${roundByRound(gatewayOnly.load, handWritten.load)}`,
    `gateway-only 1 KB JSON POST validated (enforce) / not validated: ${(results.validatedPost.rps / results.jsonPost.rps).toFixed(2)}x (target >= 0.85x) ${verdict(results.validatedPost.rps >= 0.85 * results.jsonPost.rps)}; errors ${results.jsonPost.failed + results.validatedPost.failed} ${verdict(results.jsonPost.failed + results.validatedPost.failed === 0)}`,
    `gateway-only cached GET / uncached proxied GET: ${(results.cachedGet.rps / rps(gatewayOnly)).toFixed(2)}x (target >= 2x) ${verdict(results.cachedGet.rps >= 2 * rps(gatewayOnly))}; errors ${results.cachedGet.failed} ${verdict(results.cachedGet.failed === 0)}`,
    `gateway-only cached GET / uncached proxied GET round by round: ${roundByRound(results.cachedGet, gatewayOnly.load)}`,
    ...floorLines(results),
  ];
}

/** What the minimal server (proxy-floor.ts) reached in the same turns: the ceilings of the targets above on this machine. */
function floorLines(results: ProxyResults): string[] {
  const { floor, gatewayOnly, gatewayCluster, cachedGet } = results;
  const n = availableParallelism();
  const x = (of: number, to: number) => `${(of / to).toFixed(2)}x`;
  return [
    `minimal Node server (no checks): stored answer / proxied GET ${x(floor.stored.rps, floor.proxied.rps)};` +
      ` ${n} processes / 1 process ${x(floor.proxiedOnEveryCore.rps, floor.proxied.rps)}, p99 ${floor.proxiedOnEveryCore.p99.toFixed(2)} vs ${floor.proxied.p99.toFixed(2)} ms`,
    `gateway-only / minimal server: proxied GET ${x(gatewayOnly.load.rps, floor.proxied.rps)}, cached GET / stored answer ${x(cachedGet.rps, floor.stored.rps)},` +
      ` ${n} processes ${x(gatewayCluster.load.rps, floor.proxiedOnEveryCore.rps)}`,
  ];
}

/** Each round's ratio of two contenders measured in it, which shows the spread behind the pooled ratio. */
function roundByRound(of: Measurement, to: Measurement): string {
  return of.roundRps.map((rate, round) => `${(rate / to.roundRps[round]!).toFixed(2)}x`).join(", ");
}

/** The gateway-only server on every core against itself on one, and against HAProxy. */
function clusterLines(results: ProxyResults): string[] {
  const { gatewayOnly, gatewayCluster, haproxy } = results;
  const n = availableParallelism();
  const ratio = (of: Figures, to: Figures, target: number) =>
    `${(of.load.rps / to.load.rps).toFixed(2)}x (target >= ${target}x) ${verdict(of.load.rps / to.load.rps >= target)}`;
  const rss = gatewayCluster.load.rssMb;
  return [
    `${n} processes / 1 process: ${ratio(gatewayCluster, gatewayOnly, 1.3)}; ${n} processes / HAProxy: ${haproxy ? ratio(gatewayCluster, haproxy, 0.6) : "HAProxy skipped"};` +
      ` p99 ${gatewayCluster.load.p99.toFixed(2)} vs ${gatewayOnly.load.p99.toFixed(2)} ms ${verdict(gatewayCluster.load.p99 <= gatewayOnly.load.p99)};` +
      ` RSS of the ${n} processes and the primary under load ${Math.round(rss)} MB (target <= 300 MB) ${verdict(rss <= 300)}`,
    `${n} processes / 1 process round by round: ${roundByRound(gatewayCluster.load, gatewayOnly.load)}`,
    `the machine's ${n} cores were busy ${Math.round(gatewayOnly.load.machinePercent)} % with 1 process and ${Math.round(gatewayCluster.load.machinePercent)} % with ${n} (of ${n * 100} %), the load generator and the upstream included`,
  ];
}

function streamingLines(results: ProxyResults): string[] {
  const { gatewayOnly, fullServer, handWritten } = results;
  const intact = (s: Streaming) => `down and up intact ${verdict(s.down.intact && s.up.intact)}`;
  const sse = (s: Streaming) => `first SSE event ${firstEvent(s.firstEventMs)} (target <= 100 ms) ${verdict(s.firstEventMs <= 100)}`;
  const g = gatewayOnly.streaming;
  const growth = Math.max(g.down.rssGrowthMb, g.up.rssGrowthMb);
  const slower = g.down.seconds / handWritten.streaming.down.seconds;
  const c = results.gatewayCluster.streaming;
  const clusterGrowth = Math.max(c.down.rssGrowthMb, c.up.rssGrowthMb);
  return [
    `gateway-only: ${intact(g)}; RSS growth ${Math.round(growth)} MB (target <= 32 MB) ${verdict(growth <= 32)};` +
      ` download ${slower.toFixed(2)}x the hand-written proxy's time (target <= 1.5x) ${verdict(slower <= 1.5)}; ${sse(g)}`,
    `gateway-only, ${availableParallelism()} processes: ${intact(results.gatewayCluster.streaming)}; RSS growth ${Math.round(clusterGrowth)} MB (target <= 32 MB) ${verdict(clusterGrowth <= 32)}`,
    `full server: ${intact(fullServer.streaming)}; ${sse(fullServer.streaming)}`,
  ];
}

export function proxyReport(results: ProxyResults): string {
  const contenders = (Object.keys(NAMES) as Role[]).flatMap((role): [Role, Figures][] => {
    const figures = results[role];
    return figures ? [[role, figures]] : [];
  });
  return [
    `Proxy workload: ${CONNECTIONS} connections, GET of a 1 KB JSON body with ${PROXY_CLIENTS} clients' tokens, ${PROXY_SECONDS} s a round, ${PROXY_ROUNDS} rounds taken in turns, each in a new random order, loopback`,
    `the gateway-only server runs on 1 process without Redis, and on ${availableParallelism()} (GATEWAY_PROCESSES=auto) with Redis, which more than one needs; RSS and CPU count every process`,
    ...contenders.map(([, figures]) => row(figures.load)),
    row(results.cachedGet),
    row(results.jsonPost),
    row(results.validatedPost),
    row(results.floor.proxied),
    row(results.floor.proxiedOnEveryCore),
    row(results.floor.stored),
    "",
    ...loadLines(results, contenders),
    "",
    `${`streaming, median of ${STREAMING_TRIES}`.padEnd(26)}${"64 MiB down".padEnd(35)}${"64 MiB up".padEnd(35)}first SSE event`,
    ...contenders.map(([role, figures]) => streamingRow(NAMES[role], figures.streaming)),
    "",
    ...streamingLines(results),
    "",
  ].join("\n");
}
