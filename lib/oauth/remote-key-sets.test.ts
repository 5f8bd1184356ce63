import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRemoteKeySets } from "./remote-key-sets";

let server: Server;
let base: string;
let published: object[] = [];
const fetched: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    fetched.push(request.url ?? "");
    response.setHeader("content-type", "application/json");
    if (request.url === "/.well-known/openid-configuration") response.end(JSON.stringify({ issuer: `${base}/other`, jwks_uri: `${base}/keys` }));
    else response.end(JSON.stringify({ keys: published }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A public key as published, and the protected header of a token signed with its private half. */
async function keyPair(kid: string) {
  const { publicKey } = await generateKeyPair("ES256", { extractable: true });
  return { jwk: { ...(await exportJWK(publicKey)), kid }, header: { alg: "ES256", kid } };
}

describe("remote key sets", () => {
  it("keeps a fetched set, and fetches again for an unknown kid only when the kept copy is old enough", async () => {
    const [first, second] = await Promise.all([keyPair("one"), keyPair("two")]);
    published = [first.jwk];
    fetched.length = 0;
    const eager = createRemoteKeySets({ policy: { allowPrivate: true }, minRefetchMs: 0 });
    const patient = createRemoteKeySets({ policy: { allowPrivate: true }, minRefetchMs: 60_000 });
    await (await eager.keys(`${base}/keys`))(first.header, { payload: "", signature: "" } as never);
    await eager.keys(`${base}/keys`);
    await patient.keys(`${base}/keys`);
    expect(fetched).toEqual(["/keys", "/keys"]);

    published = [first.jwk, second.jwk];
    await expect((await patient.keys(`${base}/keys`, true))(second.header, { payload: "", signature: "" } as never)).rejects.toThrow(/no applicable key/);
    expect(await (await eager.keys(`${base}/keys`, true))(second.header, { payload: "", signature: "" } as never)).toBeDefined();
    expect(fetched).toEqual(["/keys", "/keys", "/keys"]);
  });

  it("refuses a discovery document that names another issuer, and a key set on loopback without the switch", async () => {
    const sets = createRemoteKeySets({ policy: { allowPrivate: true } });
    await expect(sets.issuerJwksUri(base)).rejects.toThrow(/names the issuer/);
    await expect(createRemoteKeySets({ policy: { allowPrivate: false } }).keys(`${base}/keys`)).rejects.toThrow(/only https/);
  });
});
