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

export async function withTokens(origin: string, clients: Omit<BenchClient, "token">[]): Promise<BenchClient[]> {
  return Promise.all(
    clients.map(async (client) => {
      const { url, ...init } = tokenRequest(origin, client);
      const response = await send(url, init);
      if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${response.body}`);
      return { ...client, token: (JSON.parse(response.body) as { access_token: string }).access_token };
    }),
  );
}
