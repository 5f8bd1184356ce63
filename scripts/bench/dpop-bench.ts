// The DPoP call beside the bearer call: one notification read, over and over, by one client with a
// bearer token and with a DPoP-bound token, measured in turns on one Gatehouse (issue 53: the DPoP
// call keeps at least 0.7x the bearer call's throughput). Every DPoP request carries a proof of its
// own, signed before the measurement starts so that the load generator's signing stays out of the
// figures; the proofs' iat is set 30 s past the time their signing is expected to end, so that all
// of them stay inside the server's 60 s window for the whole run.
import { createHash, generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { send } from "./http";
import { measureInTurns, type Target } from "./load";
import { BENCH_ENV, ROUNDS, SECONDS, WARMUP_SECONDS } from "./options";
import type { Server } from "./processes";
import { type Measurement, row, verdict } from "./report";
import { tokenRequest, withTokens } from "./tokens";
import { loadWorkload } from "./workload";

const TARGET_RATIO = 0.7;
/** Proofs signed per second of the DPoP contender's load: above what one process answers on these machines. */
const PROOFS_PER_SECOND = 6_000;

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A client's ES256 key, and compact proofs (RFC 9449 §4.2) for one URL and token. */
function dpopClient() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const header = part({ typ: "dpop+jwt", alg: "ES256", jwk: publicKey.export({ format: "jwk" }) });
  return (claims: Record<string, unknown>) => {
    const input = `${header}.${part({ jti: randomUUID(), iat: Math.floor(Date.now() / 1000), ...claims })}`;
    return `${input}.${sign("sha256", Buffer.from(input), { key: privateKey, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
  };
}

export type DpopResult = { bearer: Measurement; dpop: Measurement };

export async function benchDpop(databaseUrl: string, startGatehouse: (databaseUrl: string) => Promise<Server>): Promise<DpopResult> {
  const gatehouse = await startGatehouse(databaseUrl);
  try {
    process.stderr.write("loading the DPoP workload...\n");
    const [client] = await withTokens(gatehouse.origin, await loadWorkload(databaseUrl));
    const proof = dpopClient();
    const { url: tokenUrl, ...tokenInit } = tokenRequest(gatehouse.origin, client!);
    const issued = await send(tokenUrl, { ...tokenInit, headers: { ...tokenInit.headers, dpop: proof({ htm: "POST", htu: tokenUrl }) } });
    if (issued.status !== 200) throw new Error(`DPoP token request failed: ${issued.status} ${issued.body}`);
    const bound = (JSON.parse(issued.body) as { access_token: string }).access_token;
    const url = `${gatehouse.origin}/gw/${BENCH_ENV}/notifications/v1/notifications/${client!.notificationIds[0]}`;
    const ath = createHash("sha256").update(bound).digest("base64url");
    const first = await send(url, { headers: { authorization: `DPoP ${bound}`, dpop: proof({ htm: "GET", htu: url, ath }) } });
    if (first.status !== 200) throw new Error(`the first DPoP call failed: ${first.status} ${first.body}`);
    const count = PROOFS_PER_SECOND * (WARMUP_SECONDS + ROUNDS * SECONDS + 2);
    const started = performance.now();
    const sampled = Array.from({ length: 1_000 }, () => proof({ htm: "GET", htu: url, ath }));
    const signingSeconds = ((performance.now() - started) / 1000) * (count / sampled.length);
    const iat = Math.floor(Date.now() / 1000 + signingSeconds + 30);
    process.stderr.write(`signing ${count} DPoP proofs (about ${Math.round(signingSeconds)} s)...\n`);
    const proofs = Array.from({ length: count }, () => proof({ htm: "GET", htu: url, ath, iat }));
    const path = new URL(url).pathname;
    const bearer: Target = { url, headers: { authorization: `Bearer ${client!.token}` } };
    const dpop: Target = {
      url,
      requests: [{ setupRequest: (request) => ({ ...request, method: "GET", path, headers: { authorization: `DPoP ${bound}`, dpop: proofs.pop() ?? "" } }) }],
    };
    const [bearerCall, dpopCall] = (await measureInTurns([
      { name: "Gatehouse one notification, bearer token", server: gatehouse, target: bearer },
      { name: "Gatehouse one notification, DPoP token and proof", server: gatehouse, target: dpop },
    ])) as [Measurement, Measurement];
    return { bearer: bearerCall, dpop: dpopCall };
  } finally {
    await gatehouse.stop();
  }
}

export function dpopReport({ bearer, dpop }: DpopResult): string {
  const ratio = dpop.rps / bearer.rps;
  return [
    "## DPoP",
    "",
    row(bearer),
    row(dpop),
    "",
    `DPoP call / bearer call: ${ratio.toFixed(2)}x (target >= ${TARGET_RATIO}x: ${verdict(ratio >= TARGET_RATIO && dpop.failed === 0)})`,
    "",
  ].join("\n");
}
