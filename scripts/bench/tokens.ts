// Each benchmark client's own access token, from Gatehouse's token endpoint.
import { send } from "./http";
import { BENCH_ENV } from "./options";
import type { BenchClient } from "./workload";

export function tokenRequest(origin: string, client: { clientId: string; clientSecret: string }) {
  return {
    url: `${origin}/gw/${BENCH_ENV}/oauth2/token`,
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  };
}

/** Token requests at a time: a few, as clients would log in, not a stampede on the pool. */
const AT_ONCE = 8;

async function token(origin: string, client: Omit<BenchClient, "token">): Promise<BenchClient> {
  const { url, ...init } = tokenRequest(origin, client);
  const response = await send(url, init);
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${response.body}`);
  return { ...client, token: (JSON.parse(response.body) as { access_token: string }).access_token };
}

export async function withTokens(origin: string, clients: Omit<BenchClient, "token">[]): Promise<BenchClient[]> {
  const withToken: BenchClient[] = [];
  for (let first = 0; first < clients.length; first += AT_ONCE) {
    withToken.push(...(await Promise.all(clients.slice(first, first + AT_ONCE).map((client) => token(origin, client)))));
  }
  return withToken;
}
