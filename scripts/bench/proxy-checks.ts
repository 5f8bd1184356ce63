// Before measuring the proxy workload: every proxy must answer a valid token
// with the upstream's own answer, status 200 and the same bytes, and a tampered
// or missing token with 401; the bench stops otherwise.
import { send } from "./http";
import type { Server } from "./processes";

/** The token with one character of its signature changed, well inside it: the last one may carry only padding bits. */
function tampered(token: string): string {
  const at = token.lastIndexOf(".") + 10;
  return `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;
}

export async function checkProxies(input: {
  upstream: Server;
  proxies: readonly { name: string; server: Server }[];
  path: string;
  token: string;
}): Promise<void> {
  const expected = await send(`${input.upstream.origin}${input.path}`);
  for (const proxy of input.proxies) {
    const url = `${proxy.server.origin}${input.path}`;
    const valid = await send(url, { headers: { authorization: `Bearer ${input.token}` } });
    if (valid.status !== 200 || valid.body !== expected.body) {
      throw new Error(`${proxy.name} answered a valid token with ${valid.status} ${valid.body.slice(0, 300)}, not the upstream's 200 and body`);
    }
    const refusals = { "a tampered token": { authorization: `Bearer ${tampered(input.token)}` }, "no token": {} };
    for (const [what, headers] of Object.entries(refusals)) {
      const refused = await send(url, { headers });
      if (refused.status !== 401) throw new Error(`${proxy.name} answered ${what} with ${refused.status}, not 401`);
    }
  }
  process.stderr.write("every proxy answers a valid token with the upstream's body, and a tampered or missing one with 401\n");
}

/** The cached GETs measure hits: a second GET of one path is answered from the response cache. */
export async function checkCached(input: { server: Server; path: string; token: string }): Promise<void> {
  const url = `${input.server.origin}${input.path}`;
  const headers = { authorization: `Bearer ${input.token}` };
  await send(url, { headers });
  const again = await send(url, { headers });
  if (again.status !== 200 || again.headers["cache-status"] !== "Gatehouse; hit") {
    throw new Error(`a second cached GET answered ${again.status} with Cache-Status ${String(again.headers["cache-status"])}, not a hit`);
  }
  process.stderr.write("the cached API answers a second GET from the response cache\n");
}

/** The minimal server forwards the upstream's own answer, on every process count, and its stored copy is that answer too. */
export async function checkFloor(input: { upstream: Server; floors: readonly Server[]; path: string; storedPath: string }): Promise<void> {
  const expected = await send(`${input.upstream.origin}${input.path}`);
  for (const floor of input.floors) {
    for (const path of [input.path, input.storedPath]) {
      const answer = await send(`${floor.origin}${path}`);
      if (answer.status !== 200 || answer.body !== expected.body)
        throw new Error(`${floor.name} answered ${path} with ${answer.status}, not the upstream's 200 and body`);
    }
  }
  process.stderr.write("the minimal server answers with the upstream's body, forwarded and stored\n");
}
