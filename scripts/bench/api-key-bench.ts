// The API key call beside the JWT call: one notification read, over and over, by one client with
// its access token and with an API key of the same credential, measured in turns on one Gatehouse
// (issue 51: the key path costs no more than the token path, >= 1.0x its throughput in the same run).
import { DEVELOPMENT_AUTH_SECRET } from "../../lib/config";
import { createDb } from "../../lib/db";
import { newId } from "../../lib/ids";
import { generateApiKey } from "../../lib/oauth/api-key-format";
import { hashClientSecret, secretHint } from "../../lib/oauth/client-secrets";
import { send } from "./http";
import { measureInTurns } from "./load";
import type { Target } from "./target";
import { BENCH_ENV } from "./options";
import type { Server } from "./processes";
import { type Measurement, row, verdict } from "./report";
import { withTokens } from "./tokens";
import { loadWorkload } from "./workload";

const TARGET_RATIO = 1.0;

/** A key of the client's credential, stored as `key create` stores one, and the notifications API opened to keys. */
async function keyOf(databaseUrl: string, clientId: string): Promise<string> {
  const db = createDb(databaseUrl);
  try {
    const key = generateApiKey();
    const credential = await db.credential.findUniqueOrThrow({ where: { clientId }, select: { id: true } });
    await db.apiKey.create({
      data: { id: newId("key"), credentialId: credential.id, hash: hashClientSecret(key, DEVELOPMENT_AUTH_SECRET), hint: secretHint(key) },
    });
    await db.api.update({ where: { slug: "notifications" }, data: { authentication: "oauth2 apiKey" } });
    return key;
  } finally {
    await db.$disconnect();
  }
}

export type ApiKeyResult = { token: Measurement; key: Measurement };

export async function benchApiKeys(databaseUrl: string, startGatehouse: (databaseUrl: string) => Promise<Server>): Promise<ApiKeyResult> {
  const gatehouse = await startGatehouse(databaseUrl);
  try {
    process.stderr.write("loading the API key workload...\n");
    const [client] = await withTokens(gatehouse.origin, await loadWorkload(databaseUrl));
    const key = await keyOf(databaseUrl, client!.clientId);
    const url = `${gatehouse.origin}/gw/${BENCH_ENV}/notifications/v1/notifications/${client!.notificationIds[0]}`;
    // The directory reads the API's methods again within a second of the change.
    for (let tries = 0; (await send(url, { headers: { "x-api-key": key } })).status !== 200; tries++) {
      if (tries > 50) throw new Error("the API key call never succeeded");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const token: Target = { url, headers: { authorization: `Bearer ${client!.token}` } };
    const keyed: Target = { url, headers: { "x-api-key": key } };
    const [tokenCall, keyCall] = (await measureInTurns([
      { name: "Gatehouse one notification, access token (JWT)", server: gatehouse, target: token },
      { name: "Gatehouse one notification, API key (X-API-Key)", server: gatehouse, target: keyed },
    ])) as [Measurement, Measurement];
    return { token: tokenCall, key: keyCall };
  } finally {
    await gatehouse.stop();
  }
}

export function apiKeyReport({ token, key }: ApiKeyResult): string {
  const ratio = key.rps / token.rps;
  return [
    "## API keys",
    "",
    row(token),
    row(key),
    "",
    `API key call / JWT call: ${ratio.toFixed(2)}x (target >= ${TARGET_RATIO}x: ${verdict(ratio >= TARGET_RATIO && key.failed === 0)})`,
    "",
  ].join("\n");
}
