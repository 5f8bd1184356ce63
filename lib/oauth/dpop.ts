import "server-only";
import { constants, createHmac, createPublicKey, type JsonWebKey, type KeyObject, timingSafeEqual, verify } from "node:crypto";
import { calculateJwkThumbprint, type JWK } from "jose";
import type { SeenOnce } from "../limiters/seen-once";
import { tokenHash } from "./access-tokens";

/** RFC 9449 §4.2: the proof's `typ`. */
export const DPOP_PROOF_TYPE = "dpop+jwt";
/** Asymmetric algorithms only; the token endpoint's metadata lists them as `dpop_signing_alg_values_supported`. */
export const DPOP_ALGORITHMS = ["ES256", "ES384", "RS256", "PS256", "EdDSA"];
/** A proof's `iat` may be this far from the server's clock, either way; its `jti` is remembered as long. */
export const DPOP_WINDOW_SECONDS = 60;
/** A proof larger than this is refused before it is decoded: an RSA 4096 key and every claim fit in 3 KiB. */
export const MAX_PROOF_BYTES = 8_192;
/** A server nonce stays valid for this step and the next. */
export const NONCE_STEP_SECONDS = 300;

/** Which check a proof failed; named in the gateway's problem body and the token endpoint's description. */
export type DpopCheck = "header" | "typ" | "alg" | "jwk" | "signature" | "claims" | "htm" | "htu" | "iat" | "ath" | "jkt" | "nonce" | "jti";

export class DpopRejection extends Error {
  constructor(
    readonly check: DpopCheck,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export type VerifiedProof = { jkt: string; jti: string };

/** The members only a private or symmetric key has (RFC 7518 §6): a proof carrying one leaks it, and is refused. */
const PRIVATE_MEMBERS = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"];
const KEY_TYPES = new Set(["EC", "RSA", "OKP"]);
const COMPACT_JWS = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

/** base64url(SHA-256(token)), the proof's `ath` for an access token (RFC 9449 §4.2): the hash verified tokens are kept by. */
export const accessTokenHash = tokenHash;

/** The URL a proof's `htu` is compared to: origin and path, without query or fragment (RFC 9449 §4.3). */
export function htuOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}

/**
 * Server nonces derived from a secret and the time step, so that every instance issues and
 * accepts the same nonces with nothing stored: the current step's and the previous one's are valid.
 */
export function createDpopNonces(secret: Buffer, now: () => number = Date.now) {
  const nonceAt = (scope: string, step: number) => createHmac("sha256", secret).update(`${scope}\0${step}`).digest("base64url");
  const step = () => Math.floor(now() / 1000 / NONCE_STEP_SECONDS);
  return {
    /** the nonce a client is told to use now in `scope` (an environment) */
    current: (scope: string) => nonceAt(scope, step()),
    valid(scope: string, nonce: unknown): boolean {
      if (typeof nonce !== "string") return false;
      const presented = Buffer.from(nonce);
      const current = step();
      return [current, current - 1].some((at) => {
        const expected = Buffer.from(nonceAt(scope, at));
        return expected.length === presented.length && timingSafeEqual(expected, presented);
      });
    },
  };
}

export type DpopNonces = ReturnType<typeof createDpopNonces>;

/** What a proof's protected header settles once: its algorithm, the key it carries, imported, and the key's thumbprint. */
type AcceptedHeader = { alg: string; key: KeyObject; jkt: string };

function jwkOf(header: Record<string, unknown>, alg: string): JWK {
  const { jwk } = header;
  if (typeof jwk !== "object" || jwk === null || Array.isArray(jwk)) throw new DpopRejection("jwk", "The proof's header carries no jwk.");
  const members = jwk as Record<string, unknown>;
  if (PRIVATE_MEMBERS.some((member) => member in members))
    throw new DpopRejection("jwk", "The proof's jwk must be a public key; it carries private key material.");
  if (!KEY_TYPES.has(String(members.kty))) throw new DpopRejection("jwk", "The proof's jwk must be an EC, RSA or OKP public key.");
  if (members.alg !== undefined && members.alg !== alg)
    throw new DpopRejection("jwk", `The proof's jwk is meant for ${String(members.alg).slice(0, 20)}, not ${alg}.`);
  return members as JWK;
}

/** Whether `key` is one `alg` signs with (RFC 7518 §3): the curve of an EC key, RSA of 2048 bits at least, an Edwards curve. */
function fits(key: KeyObject, alg: string): boolean {
  const type = key.asymmetricKeyType;
  const details = key.asymmetricKeyDetails ?? {};
  if (alg === "ES256") return type === "ec" && details.namedCurve === "prime256v1";
  if (alg === "ES384") return type === "ec" && details.namedCurve === "secp384r1";
  if (alg === "EdDSA") return type === "ed25519" || type === "ed448";
  return type === "rsa" && (details.modulusLength ?? 0) >= 2048;
}

/** The key of a public JWK, refused unless it fits `alg`. */
function importedKey(jwk: JWK, alg: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: jwk as JsonWebKey, format: "jwk" });
  } catch {
    throw new DpopRejection("jwk", `The proof's jwk is not a usable ${alg} public key.`);
  }
  if (!fits(key, alg)) throw new DpopRejection("jwk", `The proof's jwk is not a usable ${alg} public key.`);
  return key;
}

/**
 * node:crypto's verification of a JWS signature under `alg` (RFC 7518 §3), run on libuv's thread
 * pool: the serving thread only hands it over, where WebCrypto's verify does most of its work.
 */
function signatureVerifies(alg: string, key: KeyObject, input: string, signature: Buffer): Promise<boolean> {
  const digest = alg === "EdDSA" ? null : alg === "ES384" ? "sha384" : "sha256";
  const options =
    alg === "ES256" || alg === "ES384"
      ? { key, dsaEncoding: "ieee-p1363" as const }
      : alg === "PS256"
        ? { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }
        : key;
  return new Promise((resolve) => {
    // Whatever a proof carries, a check that cannot run is a signature that does not verify, never a 500.
    try {
      verify(digest, Buffer.from(input), options, signature, (error, valid) => resolve(!error && valid));
    } catch {
      resolve(false);
    }
  });
}

/** The proof's claims set: a JSON object whose `exp` and `nbf`, when present, are numbers that hold now (RFC 7519 §4.1). */
function claimsOf(segment: string, seconds: number): Record<string, unknown> {
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
  } catch {
    claims = undefined;
  }
  if (typeof claims !== "object" || claims === null || Array.isArray(claims)) {
    throw new DpopRejection("claims", "The DPoP proof's claims are not a valid JWT claims set.");
  }
  const { exp, nbf } = claims as Record<string, unknown>;
  const holds = (value: unknown, check: (time: number) => boolean) => value === undefined || (typeof value === "number" && check(value));
  if (!holds(exp, (time) => time > seconds) || !holds(nbf, (time) => time <= seconds)) {
    throw new DpopRejection("claims", "The DPoP proof's claims are not a valid JWT claims set.");
  }
  return claims as Record<string, unknown>;
}

export type ProofExpectations = {
  proof: string;
  method: string;
  /** the URL of the request, as the client called it */
  url: string;
  /** at a protected resource: the access token the proof must carry the hash of */
  accessToken?: string;
  /** at a protected resource: the thumbprint the token is bound to */
  jkt?: string;
  /** set when a server nonce is required: the nonces and the scope (environment) they belong to */
  nonce?: { nonces: DpopNonces; scope: string };
};

/**
 * Verifies DPoP proofs (RFC 9449 §4.3): typ, an asymmetric algorithm, a public jwk, the signature
 * with that key, htm, htu, iat within the window, ath and the key's thumbprint when a token is
 * presented, the nonce when required, and last the jti, seen once per key within the window
 * (`seen` is shared through Redis when the deployment has it). Imported keys and their
 * thumbprints are kept by the proof's header, which a client sends unchanged with every proof.
 */
export function createDpopVerifier(deps: { seen: SeenOnce; maxKeys?: number; now?: () => number }) {
  const maxKeys = deps.maxKeys ?? 1_000;
  const now = deps.now ?? Date.now;
  const headers = new Map<string, Promise<AcceptedHeader>>();

  async function accept(segment: string): Promise<AcceptedHeader> {
    let header: Record<string, unknown>;
    try {
      header = JSON.parse(Buffer.from(segment, "base64url").toString("utf8")) as Record<string, unknown>;
    } catch {
      throw new DpopRejection("header", "The DPoP proof's header cannot be decoded.");
    }
    if (typeof header !== "object" || header === null || Array.isArray(header)) throw new DpopRejection("header", "The DPoP proof's header cannot be decoded.");
    if (header.typ !== DPOP_PROOF_TYPE) throw new DpopRejection("typ", `The DPoP proof's typ must be "${DPOP_PROOF_TYPE}".`);
    const alg = String(header.alg);
    if (!DPOP_ALGORITHMS.includes(alg))
      throw new DpopRejection("alg", `The algorithm "${alg.slice(0, 20)}" is not accepted; use one of ${DPOP_ALGORITHMS.join(", ")}.`);
    if (header.crit !== undefined) throw new DpopRejection("header", "The DPoP proof's header asks for an extension (crit) that is not supported.");
    const jwk = jwkOf(header, alg);
    return { alg, key: importedKey(jwk, alg), jkt: await calculateJwkThumbprint(jwk, "sha256") };
  }

  /** The header's settled parts, kept by its base64url text, which a client sends unchanged with every proof. */
  function accepted(segment: string): Promise<AcceptedHeader> {
    const kept = headers.get(segment);
    if (kept) {
      headers.delete(segment);
      headers.set(segment, kept);
      return kept;
    }
    const settled = accept(segment);
    settled.catch(() => headers.delete(segment));
    if (headers.size >= maxKeys) headers.delete(headers.keys().next().value!);
    headers.set(segment, settled);
    return settled;
  }

  return async function verifyProof(expected: ProofExpectations): Promise<VerifiedProof> {
    const { proof } = expected;
    if (proof.length > MAX_PROOF_BYTES) throw new DpopRejection("header", `The DPoP proof is larger than ${MAX_PROOF_BYTES} bytes.`);
    if (proof.includes(",")) throw new DpopRejection("header", "Send exactly one DPoP header.");
    const compact = COMPACT_JWS.exec(proof);
    if (!compact) throw new DpopRejection("header", "The DPoP header is not a compact JWS (header.payload.signature).");
    const [, headerSegment, payloadSegment, signatureSegment] = compact as unknown as [string, string, string, string];
    const { alg, key, jkt } = await accepted(headerSegment);
    if (!(await signatureVerifies(alg, key, `${headerSegment}.${payloadSegment}`, Buffer.from(signatureSegment, "base64url")))) {
      throw new DpopRejection("signature", "The DPoP proof's signature does not verify with its jwk.");
    }
    const seconds = now() / 1000;
    const { jti, htm, htu, iat, ath, nonce } = claimsOf(payloadSegment, seconds);
    if (typeof jti !== "string" || jti.length === 0 || jti.length > 256) throw new DpopRejection("jti", "The DPoP proof needs a jti of 1 to 256 characters.");
    if (htm !== expected.method) throw new DpopRejection("htm", `The DPoP proof's htm must be the request's method, ${expected.method}.`);
    const calledUrl = htuOf(expected.url);
    if (typeof htu !== "string" || (htu !== calledUrl && htuOf(htu) !== calledUrl))
      throw new DpopRejection("htu", `The DPoP proof's htu must be the URL called, ${calledUrl}, without query or fragment.`);
    if (typeof iat !== "number" || Math.abs(seconds - iat) > DPOP_WINDOW_SECONDS) {
      throw new DpopRejection("iat", `The DPoP proof's iat must be within ${DPOP_WINDOW_SECONDS} s of the server's time.`);
    }
    if (expected.accessToken !== undefined && ath !== accessTokenHash(expected.accessToken)) {
      throw new DpopRejection("ath", "The DPoP proof's ath must be the base64url SHA-256 hash of the access token sent.");
    }
    if (expected.jkt !== undefined && jkt !== expected.jkt)
      throw new DpopRejection("jkt", "The DPoP proof is signed with another key than the one the token is bound to.");
    if (expected.nonce && !expected.nonce.nonces.valid(expected.nonce.scope, nonce)) {
      throw new DpopRejection("nonce", "The DPoP proof must carry the server's current nonce, sent in the DPoP-Nonce header.");
    }
    if (!(await deps.seen.first(`dpop:${jkt}:${jti}`, new Date((iat + DPOP_WINDOW_SECONDS + 1) * 1000)))) {
      throw new DpopRejection("jti", "The DPoP proof was used before: send a new proof, with a new jti, with every request.");
    }
    return { jkt, jti };
  };
}

export type DpopVerifier = ReturnType<typeof createDpopVerifier>;
