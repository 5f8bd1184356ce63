// The DPoP call beside the bearer call: one notification read, over and over, by one client with a
// bearer token and with a DPoP-bound token, measured in turns on one Gatehouse (issue 53: the DPoP
// call keeps at least 0.7x the bearer call's throughput). Every DPoP request carries a proof of its
// own, signed before the measurement starts so that the load generator's signing stays out of the
// figures; the proofs' iat is set 30 s past the time their signing is expected to end, so that all
// of them stay inside the server's 60 s window for the whole run.
import { createHash, generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { send } from "./http";
import { measureInTurns } from "./load";
import { BENCH_ENV, ROUNDS, SECONDS, WARMUP_SECONDS } from "./options";
import type { Server } from "./processes";
import { type Measurement, row, verdict } from "./report";
import { MOST_REQUESTS_PER_SECOND, type Target } from "./target";
import { tokenRequest, withTokens } from "./tokens";
import { loadWorkload } from "./workload";

const TARGET_RATIO = 0.7;

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A client's ES256 key, the most common choice, and compact proofs (RFC 9449 §4.2) signed with it. */
function dpopClient() {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const header = part({ typ: "dpop+jwt", alg: "ES256", jwk: publicKey.export({ format: "jwk" }) });
  return (claims: Record<string, unknown>) => {
    const input = `${header}.${part({ jti: randomUUID(), iat: Math.floor(Date.now() / 1000), ...claims })}`;
    return `${input}.${sign("sha256", Buffer.from(input), { key: privateKey, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
  };
}

/** A token bound to `proof`'s key, checked with one call of `url`. */
async function boundToken(origin: string, client: { clientId: string; clientSecret: string }, proof: ReturnType<typeof dpopClient>, url: string) {
  const { url: tokenUrl, ...tokenInit } = tokenRequest(origin, client);
  const issued = await send(tokenUrl, { ...tokenInit, headers: { ...tokenInit.headers, dpop: proof({ htm: "POST", htu: tokenUrl }) } });
  if (issued.status !== 200) throw new Error(`DPoP token request failed: ${issued.status} ${issued.body}`);
  const token = (JSON.parse(issued.body) as { access_token: string }).access_token;
  const ath = createHash("sha256").update(token).digest("base64url");
  const first = await send(url, { headers: { authorization: `DPoP ${token}`, dpop: proof({ htm: "GET", htu: url, ath }) } });
  if (first.status !== 200) throw new Error(`the first DPoP call failed: ${first.status} ${first.body}`);
  return { token, sign: (iat?: number) => proof({ htm: "GET", htu: url, ath, ...(iat === undefined ? {} : { iat }) }) };
}

/**
 * `count` proofs for each client, all with one iat: 35 s past the time their signing is expected to
 * end (timed on a sample), so that they stay inside the server's 60 s window for the run's minute.
 */
function signedAhead(clients: readonly { token: string; sign: (iat?: number) => string }[], count: number) {
  const started = performance.now();
  for (const client of clients) for (let i = 0; i < 500; i++) client.sign();
  const signingSeconds = ((performance.now() - started) / 1000) * (count / 500);
  const iat = Math.floor(Date.now() / 1000 + signingSeconds + 35);
  process.stderr.write(`signing ${count * clients.length} DPoP proofs (about ${Math.round(signingSeconds)} s)...\n`);
  return clients.map((client) => ({ token: client.token, proofs: Array.from({ length: count }, () => client.sign(iat)) }));
}

function dpopTarget(url: string, { token, proofs }: { token: string; proofs: string[] }): Target {
  const path = new URL(url).pathname;
  return { url, once: true, draw: () => ({ method: "GET", path, headers: { authorization: `DPoP ${token}`, dpop: proofs.pop() ?? "" } }) };
}

export type DpopResult = { bearer: Measurement; dpop: Measurement };

export async function benchDpop(databaseUrl: string, startGatehouse: (databaseUrl: string) => Promise<Server>): Promise<DpopResult> {
  const gatehouse = await startGatehouse(databaseUrl);
  try {
    process.stderr.write("loading the DPoP workload...\n");
    const [client] = await withTokens(gatehouse.origin, await loadWorkload(databaseUrl));
    const url = `${gatehouse.origin}/gw/${BENCH_ENV}/notifications/v1/notifications/${client!.notificationIds[0]}`;
    const count = MOST_REQUESTS_PER_SECOND * (WARMUP_SECONDS + ROUNDS * SECONDS + 2);
    const [es256] = signedAhead([await boundToken(gatehouse.origin, client!, dpopClient(), url)], count) as [{ token: string; proofs: string[] }];
    const bearer: Target = { url, headers: { authorization: `Bearer ${client!.token}` } };
    const [bearerCall, dpopCall] = (await measureInTurns([
      { name: "Gatehouse one notification, bearer token", server: gatehouse, target: bearer },
      { name: "Gatehouse one notification, DPoP (ES256 proofs)", server: gatehouse, target: dpopTarget(url, es256) },
    ])) as [Measurement, Measurement];
    return { bearer: bearerCall, dpop: dpopCall };
  } finally {
    await gatehouse.stop();
  }
}

export function dpopReport({ bearer, dpop }: DpopResult): string {
  const ratio = dpop.rps / bearer.rps;
  const line = `DPoP call / bearer call: ${ratio.toFixed(2)}x (target >= ${TARGET_RATIO}x: ${verdict(ratio >= TARGET_RATIO && dpop.failed === 0)})`;
  return ["## DPoP", "", row(bearer), row(dpop), "", line, ""].join("\n");
}
