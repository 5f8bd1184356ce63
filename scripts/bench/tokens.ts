// Each benchmark client's own access token, from Gatehouse's token endpoint.
import { send } from "./http";
import { BENCH_ENV } from "./options";

type Credential = { clientId: string; clientSecret: string };

export function tokenRequest(origin: string, client: Credential) {
  return {
    url: `${origin}/gw/${BENCH_ENV}/oauth2/token`,
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  };
}

/** Token requests at a time: a few, as clients would log in, not a stampede on the pool. */
const AT_ONCE = 8;

async function token<C extends Credential>(origin: string, client: C): Promise<C & { token: string }> {
  const { url, ...init } = tokenRequest(origin, client);
  const response = await send(url, init);
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${response.body}`);
  return { ...client, token: (JSON.parse(response.body) as { access_token: string }).access_token };
}

export async function withTokens<C extends Credential>(origin: string, clients: C[]): Promise<(C & { token: string })[]> {
  const withToken: (C & { token: string })[] = [];
  for (let first = 0; first < clients.length; first += AT_ONCE) {
    withToken.push(...(await Promise.all(clients.slice(first, first + AT_ONCE).map((client) => token(origin, client)))));
  }
  return withToken;
}
