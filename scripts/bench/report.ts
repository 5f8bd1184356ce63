// What `npm run bench` prints: every measurement, then the ratios within the run.
import { CONNECTIONS, ROUNDS, SECONDS } from "./options";
import { type TokenProbeResult, tokenProbeLine } from "./token-probe";

export type Measurement = {
  name: string;
  rps: number;
  /** each round's own rate, in round order */
  roundRps: number[];
  p50: number;
  p99: number;
  failed: number;
  rssMb: number;
  cpuPercent: number;
  /** what every process on the machine used meanwhile, the load generator's and the upstream's included: 100 per busy core */
  machinePercent: number;
};

export type DialectResult = { dialect: string; gatehouse: Measurement; baseline: Measurement };

export function row(m: Measurement): string {
  return [
    m.name.padEnd(50),
    `${Math.round(m.rps)}`.padStart(7),
    " req/s  p50",
    m.p50.toFixed(1).padStart(6),
    " ms  p99",
    m.p99.toFixed(1).padStart(6),
    " ms  errors",
    `${m.failed}`.padStart(5),
    "  RSS",
    `${Math.round(m.rssMb)}`.padStart(5),
    " MB  CPU",
    `${Math.round(m.cpuPercent)}`.padStart(4),
    " %  req per CPU-s",
    `${Math.round(m.rps / (m.cpuPercent / 100))}`.padStart(6),
    "  machine",
    `${Math.round(m.machinePercent)}`.padStart(4),
    " %",
  ].join("");
}

export const verdict = (met: boolean) => (met ? "met" : "NOT met");

export function report(input: {
  measurements: Measurement[];
  dialects: DialectResult[];
  bare: Measurement;
  tokens: Measurement;
  tokenProbe: TokenProbeResult;
  opensslSigns?: number;
}): string {
  const lines = [
    "",
    `Gatehouse benchmark: ${CONNECTIONS} connections, ${SECONDS} s a round, mixes in ${ROUNDS} rounds taken in turns, loopback`,
    ...input.measurements.map(row),
    "",
  ];
  const targets: Record<string, number> = { sqlite: 1.3, postgresql: 1.1 };
  for (const { dialect, gatehouse, baseline } of input.dialects) {
    const ratio = gatehouse.rps / baseline.rps;
    const perCpu = gatehouse.rps / gatehouse.cpuPercent / (baseline.rps / baseline.cpuPercent);
    const target = targets[dialect] ?? 1;
    lines.push(
      `${dialect.padEnd(10)} Gatehouse / hand-written: ${ratio.toFixed(2)}x (target >= ${target}x) ${verdict(ratio >= target)}, per CPU-second ${perCpu.toFixed(2)}x;` +
        ` p99 ${gatehouse.p99.toFixed(2)} vs ${baseline.p99.toFixed(2)} ms ${verdict(gatehouse.p99 <= baseline.p99)}; errors ${gatehouse.failed} ${verdict(gatehouse.failed === 0)};` +
        ` Gatehouse / bare node: ${((gatehouse.rps / input.bare.rps) * 100).toFixed(0)} %`,
    );
  }
  const signs = input.opensslSigns;
  lines.push(
    `token endpoint: ${Math.round(input.tokens.rps)} tokens/s` +
      (signs
        ? `; openssl speed rsa2048: ${Math.round(signs)} signs/s per core; ratio ${(input.tokens.rps / signs).toFixed(2)}`
        : "; openssl speed unavailable"),
    tokenProbeLine(input.tokenProbe),
    "",
  );
  return lines.join("\n");
}
