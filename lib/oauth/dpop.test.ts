import { generateKeyPairSync, KeyObject, randomUUID, sign } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { createMemorySeenOnce } from "../limiters/seen-once";
import { accessTokenHash, createDpopNonces, createDpopVerifier, DpopRejection, MAX_PROOF_BYTES, NONCE_STEP_SECONDS, type ProofExpectations } from "./dpop";

const URL_CALLED = "https://gw.example/gw/prod/orders/v1/items";
let pair: CryptoKeyPair;
let jwk: JWK;
let jkt: string;

beforeAll(async () => {
  pair = await generateKeyPair("ES256", { extractable: true });
  jwk = await exportJWK(pair.publicKey);
  jkt = await calculateJwkThumbprint(jwk, "sha256");
});

type ProofOptions = { claims?: Record<string, unknown>; header?: Record<string, unknown>; key?: CryptoKey | Uint8Array; alg?: string };

function proof({ claims = {}, header = {}, key = pair.privateKey, alg = "ES256" }: ProofOptions = {}) {
  return new SignJWT({ jti: randomUUID(), htm: "GET", htu: URL_CALLED, iat: Math.floor(Date.now() / 1000), ...claims })
    .setProtectedHeader({ alg, typ: "dpop+jwt", jwk, ...header })
    .sign(key);
}

/** A proof signed with node:crypto, RS256, for what jose refuses to sign. */
function handMade(header: object, privateKey: KeyObject): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${part(header)}.${part({ jti: randomUUID(), htm: "GET", htu: URL_CALLED, iat: Math.floor(Date.now() / 1000) })}`;
  return `${input}.${sign("sha256", Buffer.from(input), privateKey).toString("base64url")}`;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DpopRejection);
  return (error as DpopRejection).check;
}

describe("DPoP proofs", () => {
  const verify = createDpopVerifier({ seen: createMemorySeenOnce() });
  const at = (value: string, expected: Partial<ProofExpectations> = {}) => verify({ proof: value, method: "GET", url: URL_CALLED, ...expected });

  it("accepts a proof and answers its key's RFC 7638 thumbprint; the query of the URL called is not compared", async () => {
    const token = "header.payload.signature";
    expect(await at(await proof({ claims: { ath: accessTokenHash(token) } }), { url: `${URL_CALLED}?page=2#top`, accessToken: token, jkt })).toMatchObject({
      jkt,
    });
  });

  it("refuses each check by name", async () => {
    const other = await generateKeyPair("ES256");
    expect(await refusal(at(await proof({ header: { typ: "JWT" } })))).toBe("typ");
    expect(await refusal(at(await proof({ key: new TextEncoder().encode("a shared secret of 32 bytes!!!!!"), alg: "HS256" })))).toBe("alg");
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const unsigned = `${part({ alg: "none", typ: "dpop+jwt", jwk })}.${part({ jti: "n", htm: "GET", htu: URL_CALLED, iat: Date.now() / 1000 })}.AA`;
    expect(await refusal(at(unsigned))).toBe("alg");
    expect(await refusal(at(await proof({ header: { jwk: { ...(await exportJWK(pair.privateKey)) } } })))).toBe("jwk");
    expect(await refusal(at(await proof({ header: { jwk: { kty: "oct", k: "c2VjcmV0" } } })))).toBe("jwk");
    expect(await refusal(at(await proof({ header: { jwk: undefined } })))).toBe("jwk");
    expect(await refusal(at(await proof({ key: other.privateKey })))).toBe("signature");
    expect(await refusal(at(await proof({ claims: { htm: "POST" } })))).toBe("htm");
    expect(await refusal(at(await proof({ claims: { htu: "https://gw.example/gw/prod/orders/v1/other" } })))).toBe("htu");
    expect(await refusal(at(await proof({ claims: { iat: Math.floor(Date.now() / 1000) - 61 } })))).toBe("iat");
    expect(await refusal(at(await proof({ claims: { iat: Math.floor(Date.now() / 1000) + 61 } })))).toBe("iat");
    expect(await refusal(at(await proof({ claims: { jti: undefined } })))).toBe("jti");
    expect(await refusal(at(await proof({ claims: { ath: "wrong" } }), { accessToken: "a.b.c" }))).toBe("ath");
    expect(await refusal(at(await proof(), { jkt: "another-thumbprint" }))).toBe("jkt");
    expect(await refusal(at("x".repeat(MAX_PROOF_BYTES + 1)))).toBe("header");
    expect(await refusal(at("not a jws"))).toBe("header");
    expect(await refusal(at(`${await proof()}, ${await proof()}`))).toBe("header");
    expect(await refusal(at(`${Buffer.from("null").toString("base64url")}.${part({})}.AA`))).toBe("header");
    const notAClaimsSet = `${part({ alg: "ES256", typ: "dpop+jwt", jwk })}.${Buffer.from("[1]").toString("base64url")}`;
    const signature = sign("sha256", Buffer.from(notAClaimsSet), { key: KeyObject.from(pair.privateKey), dsaEncoding: "ieee-p1363" });
    expect(await refusal(at(`${notAClaimsSet}.${signature.toString("base64url")}`))).toBe("claims");
    expect(await refusal(at(`${notAClaimsSet}.${signature.subarray(1).toString("base64url")}`))).toBe("signature");
  });

  it("accepts a jti once per key", async () => {
    const once = await proof();
    await at(once);
    expect(await refusal(at(once))).toBe("jti");
  });

  it("takes RS256, PS256 and EdDSA keys", async () => {
    for (const alg of ["RS256", "PS256", "EdDSA"]) {
      const keys = await generateKeyPair(alg, { extractable: true });
      const publicJwk = await exportJWK(keys.publicKey);
      const result = await at(await proof({ key: keys.privateKey, alg, header: { jwk: publicJwk } }));
      expect(result.jkt).toBe(await calculateJwkThumbprint(publicJwk, "sha256"));
      const signed = await proof({ key: keys.privateKey, alg, header: { jwk: publicJwk } });
      expect(await refusal(at(`${signed.slice(0, signed.lastIndexOf(".") + 1)}AAAA`))).toBe("signature");
    }
  });

  it("refuses a key that does not fit its algorithm, a short RSA key, crit extensions and an exp or nbf that does not hold", async () => {
    const p384 = await generateKeyPair("ES384", { extractable: true });
    expect(await refusal(at(await proof({ header: { jwk: await exportJWK(p384.publicKey) } })))).toBe("jwk");
    expect(await refusal(at(await proof({ header: { jwk: { ...jwk, alg: "ES384" } } })))).toBe("jwk");
    // jose signs neither with an RSA key under 2048 bits nor with a crit it does not know, so these are put together by hand.
    const short = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const shortJwk = short.publicKey.export({ format: "jwk" });
    expect(await refusal(at(handMade({ alg: "RS256", typ: "dpop+jwt", jwk: shortJwk }, short.privateKey)))).toBe("jwk");
    const full = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const fullJwk = full.publicKey.export({ format: "jwk" });
    await at(handMade({ alg: "RS256", typ: "dpop+jwt", jwk: fullJwk }, full.privateKey));
    expect(await refusal(at(handMade({ alg: "RS256", typ: "dpop+jwt", jwk: fullJwk, crit: ["urn:x"], "urn:x": 1 }, full.privateKey)))).toBe("header");
    const seconds = Math.floor(Date.now() / 1000);
    expect(await refusal(at(await proof({ claims: { exp: seconds - 1 } })))).toBe("claims");
    expect(await refusal(at(await proof({ claims: { nbf: seconds + 30 } })))).toBe("claims");
    expect(await refusal(at(await proof({ claims: { exp: "later" } })))).toBe("claims");
    await at(await proof({ claims: { exp: seconds + 30, nbf: seconds - 1 } }));
  });

  it("keeps a bounded number of imported keys", async () => {
    const small = createDpopVerifier({ seen: createMemorySeenOnce(), maxKeys: 1 });
    const keys = await generateKeyPair("ES256", { extractable: true });
    const second = { key: keys.privateKey, header: { jwk: await exportJWK(keys.publicKey) } };
    for (const options of [{}, second, {}, second]) await small({ proof: await proof(options), method: "GET", url: URL_CALLED });
  });
});

describe("DPoP nonces", () => {
  it("rotate with the time step, the previous one still valid, and differ per scope", () => {
    let now = Date.UTC(2026, 10, 29);
    const nonces = createDpopNonces(Buffer.alloc(32, 1), () => now);
    const first = nonces.current("prod");
    expect(nonces.valid("prod", first)).toBe(true);
    expect(nonces.valid("sandbox", first)).toBe(false);
    now += NONCE_STEP_SECONDS * 1000;
    expect(nonces.current("prod")).not.toBe(first);
    expect(nonces.valid("prod", first)).toBe(true);
    now += NONCE_STEP_SECONDS * 1000;
    expect(nonces.valid("prod", first)).toBe(false);
    expect(nonces.valid("prod", undefined)).toBe(false);
  });

  it("are required when asked for", async () => {
    const nonces = createDpopNonces(Buffer.alloc(32, 2));
    const verify = createDpopVerifier({ seen: createMemorySeenOnce() });
    const required = { method: "GET", url: URL_CALLED, nonce: { nonces, scope: "prod" } };
    expect(await refusal(verify({ proof: await proof(), ...required }))).toBe("nonce");
    await verify({ proof: await proof({ claims: { nonce: nonces.current("prod") } }), ...required });
  });
});
