/**
 * Whether a token request's latency tells a known client id from an unknown
 * one: the median of `rounds` requests with an unknown id next to the median
 * of as many with the known id and a wrong secret, interleaved so that both
 * see the same load. Each request claims its own address (198.18.0.0/15, the
 * benchmarking range) through a trusted proxy, so the failure throttles never
 * answer instead of the check being measured.
 */
export type TokenProbeResult = { unknownIdMedianMs: number; wrongSecretMedianMs: number; rounds: number };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function timedFailure(tokenUrl: string, clientId: string, address: string): Promise<number> {
  const startedAt = performance.now();
  const response = await fetch(tokenUrl, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:gsk_${"x".repeat(43)}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": address,
    },
    body: "grant_type=client_credentials",
  });
  await response.arrayBuffer();
  const elapsed = performance.now() - startedAt;
  if (response.status !== 401) throw new Error(`token probe expected 401, got ${response.status}`);
  return elapsed;
}

/** `tokenUrl` of a server that trusts this machine as a proxy (TRUSTED_PROXIES=127.0.0.1,::1). */
export async function probeTokenLatency(input: { tokenUrl: string; knownClientId: string; rounds?: number }): Promise<TokenProbeResult> {
  const rounds = input.rounds ?? 200;
  const unknown: number[] = [];
  const wrong: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const address = (side: number) => `198.18.${(round * 2 + side) >> 8}.${(round * 2 + side) & 255}`;
    const unknownId = `gci_${round.toString(16).padStart(24, "0")}`;
    unknown.push(await timedFailure(input.tokenUrl, unknownId, address(0)));
    wrong.push(await timedFailure(input.tokenUrl, input.knownClientId, address(1)));
  }
  return { unknownIdMedianMs: median(unknown), wrongSecretMedianMs: median(wrong), rounds };
}

export function tokenProbeLine(result: TokenProbeResult): string {
  return `token probe (${result.rounds} each): unknown client id median ${result.unknownIdMedianMs.toFixed(2)} ms, wrong secret median ${result.wrongSecretMedianMs.toFixed(2)} ms`;
}
