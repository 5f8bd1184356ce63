import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../prisma/seed";
import { migratedDatabase } from "../database/migrated-database";
import { config } from "../config";
import { createMemoryFailureCounter } from "../limiters/rate-limit-memory";
import { CLI_ACTOR } from "../audit/write-audit";
import { createCredential, ensureApplication } from "../credentials/credentials";
import { createAssertionVerifier } from "./client-assertions";
import { type ClientAuthenticator, createClientAuthenticator, FAILURE_WINDOW_SECONDS, MAX_FAILURES_PER_CLIENT_AND_ADDRESS } from "./client-authentication";
import { createRemoteKeySets } from "./remote-key-sets";
import { createMemorySeenOnce } from "../limiters/seen-once";
import { hashClientSecret } from "./client-secrets";
import { createCredentialStates, type CredentialStates } from "./credential-states";
import { OAuthError } from "./oauth-error";

let fixture: Awaited<ReturnType<typeof migratedDatabase>>;
let clientId: string;
let clientSecret: string;
let environmentId: string;

beforeAll(async () => {
  fixture = await migratedDatabase();
  await seed(fixture.db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  const application = await ensureApplication({ db: fixture.db, actor: CLI_ACTOR, ownerId: null, name: "Probed" });
  const { credential, secret } = await createCredential({ db: fixture.db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "sso-qa" });
  clientId = credential.clientId;
  clientSecret = secret!.clientSecret;
  environmentId = credential.environment.id;
});

afterAll(async () => {
  await fixture?.close();
});

/** The real authenticator over the real credential store, with each unit of work counted. */
function countingAuthenticator() {
  const work = { hashes: 0, stateReads: 0, refreshes: 0 };
  const states = createCredentialStates({ store: fixture.store });
  const counted: CredentialStates = {
    get: (id) => (work.stateReads++, states.get(id)),
    refresh: (id) => (work.refreshes++, states.refresh(id)),
  };
  const authenticate = createClientAuthenticator({
    states: counted,
    failures: createMemoryFailureCounter(FAILURE_WINDOW_SECONDS),
    hashSecret: (secret) => (work.hashes++, hashClientSecret(secret, config().authSecret)),
    verifyAssertion: createAssertionVerifier({
      keySets: createRemoteKeySets({ policy: { allowPrivate: false } }),
      seen: createMemorySeenOnce(),
      publicUrl: config().publicUrl,
    }),
    log: pino({ level: "silent" }),
  });
  return { work, authenticate };
}

async function refusal(authenticate: ClientAuthenticator, id: string, secret: string, clientAddress = "198.51.100.1"): Promise<OAuthError> {
  const outcome = await authenticate({
    envId: environmentId,
    envSlug: "sso-qa",
    presented: { clientId: id, clientSecret: secret, method: "client_secret_basic" },
    clientAddress,
  }).catch((error: unknown) => error);
  if (!(outcome instanceof OAuthError)) throw new Error("expected a refusal");
  return outcome;
}

describe("client authentication", () => {
  it("does the same work for an unknown client id as for a wrong secret", async () => {
    const unknown = countingAuthenticator();
    const wrong = countingAuthenticator();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await refusal(unknown.authenticate, "gci_000000000000000000000000", `${clientSecret}x`)).error).toBe("invalid_client");
      expect((await refusal(wrong.authenticate, clientId, `${clientSecret}x`)).error).toBe("invalid_client");
    }
    expect(unknown.work).toEqual(wrong.work);
    expect(unknown.work).toEqual({ hashes: 3, stateReads: 3, refreshes: 3 });
  });

  it("throttles failures per client id and address, while the owner elsewhere still gets in", async () => {
    const { authenticate } = countingAuthenticator();
    for (let attempt = 0; attempt < MAX_FAILURES_PER_CLIENT_AND_ADDRESS; attempt++) {
      expect((await refusal(authenticate, clientId, "gsk_wrong", "203.0.113.66")).status).toBe(401);
    }
    const throttled = await refusal(authenticate, clientId, clientSecret, "203.0.113.66");
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers?.["retry-after"])).toBeGreaterThan(0);
    const owner = await authenticate({
      envId: environmentId,
      envSlug: "sso-qa",
      presented: { clientId, clientSecret, method: "client_secret_post" },
      clientAddress: "192.0.2.10",
    });
    expect(owner.credential.clientId).toBe(clientId);
  });
});
