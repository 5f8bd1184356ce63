import "server-only";
import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";
import { importJWK, importPKCS8, type JWK } from "jose";
import type { Logger } from "pino";
import type { ChangeSignal } from "../caching/change-signal";
import { refusedWhileDatabaseAway } from "../caching/database-away";
import type { DataPlaneStore, EnvironmentRow, NewSigningKey } from "../data-plane/store";
import { newId } from "../ids";
import { sealWithDerivedKey, unsealWithDerivedKey } from "./derived-keys";

export const SIGNING_ALGORITHM = "RS256";

const generateRsaKeyPair = promisify(generateKeyPair);

/** The private key sealed with the key derived from AUTH_SECRET for signing keys. */
export function encryptPrivateKey(pem: string, authSecret: string): string {
  return sealWithDerivedKey(Buffer.from(pem, "utf8"), authSecret, "signing-key-encryption");
}

export function decryptPrivateKey(sealed: string, authSecret: string): string {
  return unsealWithDerivedKey(sealed, authSecret, "signing-key-encryption").toString("utf8");
}

/** A new RS256 key for `environmentId`, with its private part sealed. */
async function newSigningKey(environmentId: string, authSecret: string): Promise<NewSigningKey> {
  const { publicKey, privateKey } = await generateRsaKeyPair("rsa", { modulusLength: 2048 });
  const kid = newId("key");
  const jwk = { ...(publicKey.export({ format: "jwk" }) as JWK), kid, use: "sig", alg: SIGNING_ALGORITHM };
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }) as string;
  return { id: kid, environmentId, algorithm: SIGNING_ALGORITHM, publicJwk: JSON.stringify(jwk), privateKeyEncrypted: encryptPrivateKey(pem, authSecret) };
}

type KeyStorage = Pick<DataPlaneStore, "directory" | "publishedKeys" | "signingKey" | "addSigningKey" | "replaceSigningKeys">;

/** Retires the environment's signing keys (still published until their tokens expire) and adds the next one. */
async function replaceSigningKeys(store: KeyStorage, environment: EnvironmentRow, authSecret: string) {
  const key = await newSigningKey(environment.id, authSecret);
  const now = new Date();
  const publishedUntil = new Date(now.getTime() + (environment.tokenLifetimeSeconds + 60) * 1000);
  const retired = await store.replaceSigningKeys(key, { now, publishedUntil });
  return { key, retired, publishedUntil: retired.length > 0 ? publishedUntil : null };
}

async function environmentWhere(store: KeyStorage, matches: (environment: EnvironmentRow) => boolean): Promise<EnvironmentRow | undefined> {
  return (await store.directory()).environments.find(matches);
}

/**
 * `key rotate`: a new key signs from now on; the keys it replaces stay
 * published until every token they signed has expired (lifetime + leeway).
 */
export async function rotateSigningKey(input: { store: KeyStorage; envSlug: string; authSecret: string }) {
  const { store, envSlug, authSecret } = input;
  const environment = await environmentWhere(store, (candidate) => candidate.slug === envSlug);
  if (!environment) return undefined;
  const { key, retired, publishedUntil } = await replaceSigningKeys(store, environment, authSecret);
  return { kid: key.id, env: envSlug, retired, retiredPublishedUntil: publishedUntil };
}

export type PublishedKey = { kid: string; environmentId: string; jwk: JWK; key: CryptoKey };
export type SigningKeyInUse = { kid: string; key: CryptoKey };

export type KeyStore = {
  /** the newest unretired key of the environment, created on first use */
  signingKey(environmentId: string): Promise<SigningKeyInUse>;
  /** a published key of any environment, by `kid` */
  publishedKey(kid: string): Promise<PublishedKey | undefined>;
  /** the JWKS of one environment: public parts only */
  jwks(environmentId: string): Promise<{ keys: JWK[] }>;
};

type Published = { byKid: Map<string, PublishedKey>; loadedAt: number };

/**
 * Keys are read from the database and kept for `maxAgeMs`; an unknown `kid`
 * reloads at most once a second, so random kids cannot hammer the database. A call that
 * waits for a read the database does not answer is refused 503 `not-ready` (decision 042).
 * On a signal of `changes` every key is read again before it is used.
 */
export function createKeyStore(input: {
  store: KeyStorage;
  authSecret: string;
  maxAgeMs?: number;
  changes?: ChangeSignal;
  log?: Pick<Logger, "warn">;
}): KeyStore {
  const { store, authSecret } = input;
  const maxAgeMs = input.maxAgeMs ?? 5_000;
  const answered = refusedWhileDatabaseAway("signing keys", input.log);
  let published: Promise<Published> | undefined;
  let lastLoadStartedAt = 0;
  const signing = new Map<string, { key: Promise<SigningKeyInUse>; loadedAt: number; settled: boolean }>();
  let changedAt = -Infinity;
  input.changes?.subscribe(() => {
    changedAt = Date.now();
  });
  const fresh = (loadedAt: number) => loadedAt >= changedAt && Date.now() - loadedAt < maxAgeMs;

  async function loadPublished(): Promise<Published> {
    const rows = await store.publishedKeys(new Date());
    const byKid = new Map<string, PublishedKey>();
    for (const row of rows) {
      const jwk = JSON.parse(row.publicJwk) as JWK;
      byKid.set(row.id, { kid: row.id, environmentId: row.environmentId, jwk, key: (await importJWK(jwk, SIGNING_ALGORITHM)) as CryptoKey });
    }
    return { byKid, loadedAt: Date.now() };
  }

  function reload(): Promise<Published> {
    lastLoadStartedAt = Date.now();
    const loading = loadPublished();
    published = loading;
    loading.catch(() => (published = undefined));
    return loading;
  }

  async function current(): Promise<Published> {
    const cached = published && (await published.catch(() => undefined));
    if (cached && fresh(cached.loadedAt)) return cached;
    return answered(reload());
  }

  /** The private key, or undefined when it was sealed under another AUTH_SECRET. */
  function openPrivateKey(sealed: string): string | undefined {
    try {
      return decryptPrivateKey(sealed, authSecret);
    } catch {
      return undefined;
    }
  }

  /** The environment's key as stored, a new one when it has none, or its replacement when it was sealed under a previous AUTH_SECRET. */
  async function usableKey(environmentId: string): Promise<{ id: string; pem: string }> {
    const stored = await store.signingKey(environmentId);
    const pem = stored && openPrivateKey(stored.privateKeyEncrypted);
    if (stored && pem) return { id: stored.id, pem };
    if (!stored) {
      await store.addSigningKey(await newSigningKey(environmentId, authSecret), new Date());
      // Processes that found no key at the same moment each add one; read again, they all sign with the newest.
      return usableKey(environmentId);
    }
    const environment = await environmentWhere(store, (candidate) => candidate.id === environmentId);
    if (!environment) throw new Error(`no environment ${environmentId}`);
    const { key } = await replaceSigningKeys(store, environment, authSecret);
    return { id: key.id, pem: decryptPrivateKey(key.privateKeyEncrypted, authSecret) };
  }

  async function loadSigningKey(environmentId: string): Promise<SigningKeyInUse> {
    const { id, pem } = await usableKey(environmentId);
    const key = (await importPKCS8(pem, SIGNING_ALGORITHM)) as CryptoKey;
    published = undefined;
    return { kid: id, key };
  }

  return {
    async signingKey(environmentId) {
      const cached = signing.get(environmentId);
      // A load under way is shared even when a change arrives meanwhile: a second one would find
      // no key either while the first is still creating it, and create another.
      if (cached && (!cached.settled || fresh(cached.loadedAt))) return cached.key;
      // Past its age a key is looked up again before it signs, so a rotation made by another
      // process signs here within maxAgeMs; while the database fails, the key held goes on.
      const loading = loadSigningKey(environmentId);
      const entry = { key: cached ? loading.catch(() => cached.key) : answered(loading), loadedAt: Date.now(), settled: false };
      signing.set(environmentId, entry);
      entry.key.then(
        () => (entry.settled = true),
        () => signing.get(environmentId) === entry && signing.delete(environmentId),
      );
      return entry.key;
    },
    async publishedKey(kid) {
      const found = (await current()).byKid.get(kid);
      if (found || Date.now() - lastLoadStartedAt < 1_000) return found;
      return (await answered(reload())).byKid.get(kid);
    },
    async jwks(environmentId) {
      const keys = [...(await current()).byKid.values()].filter((key) => key.environmentId === environmentId);
      return { keys: keys.map((key) => key.jwk) };
    },
  };
}
