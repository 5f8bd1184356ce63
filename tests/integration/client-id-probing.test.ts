import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../prisma/seed";
import { CLI_ACTOR } from "../../lib/audit/write-audit";
import { config } from "../../lib/config";
import { createCredential, ensureApplication } from "../../lib/credentials/credentials";
import { applyMigrations } from "../../lib/database/migrations";
import { type DriverConnection, openDriver } from "../../lib/data-plane/connection";
import { createDataPlaneStore } from "../../lib/data-plane/store-for-connection";
import { createDb, type Db } from "../../lib/db";
import { createMemoryFailureCounter } from "../../lib/limiters/rate-limit-memory";
import { createAssertionVerifier } from "../../lib/oauth/client-assertions";
import { createClientAuthenticator, FAILURE_WINDOW_SECONDS } from "../../lib/oauth/client-authentication";
import { createRemoteKeySets } from "../../lib/oauth/remote-key-sets";
import { createMemorySeenOnce } from "../../lib/limiters/seen-once";
import { hashClientSecret } from "../../lib/oauth/client-secrets";
import { createCredentialStates } from "../../lib/oauth/credential-states";
import { createTestDatabase, type TestDatabase } from "../../lib/database/test-databases";

// Whether a client id exists must not show in the token endpoint's work: a wrong secret and
// an unknown id, kept or not, send the same statements to the database in the same round
// trip and compute the same hashes. Counted, not timed, on the dialect under test.

let database: TestDatabase;
let db: Db;
let connection: DriverConnection;
/** What the counted connection reports each statement to. */
let heard: (sql: string) => void = () => undefined;
let clientId: string;
let clientSecret: string;
let environmentId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await applyMigrations(database.url);
  db = createDb(database.url);
  await seed(db, { seedDemo: false, seedAdminPassword: undefined, seedDeveloperPassword: undefined });
  const application = await ensureApplication({ db, actor: CLI_ACTOR, ownerId: null, name: "Probed" });
  const { credential, secret } = await createCredential({ db, actor: CLI_ACTOR, applicationId: application.id, envSlug: "sso-qa" });
  clientId = credential.clientId;
  clientSecret = secret!.clientSecret;
  environmentId = credential.environment.id;
  connection = openDriver(database.url, { onQuery: (sql) => heard(sql) });
});

afterAll(async () => {
  await Promise.all([db?.$disconnect(), connection?.close()]);
  await database?.drop();
});

/** An authenticator with nothing kept, over the counted connection. */
function authenticator() {
  const work = { hashes: 0 };
  const authenticate = createClientAuthenticator({
    states: createCredentialStates({ store: createDataPlaneStore(connection) }),
    failures: createMemoryFailureCounter(FAILURE_WINDOW_SECONDS),
    hashSecret: (secret) => (work.hashes++, hashClientSecret(secret, config().authSecret)),
    verifyAssertion: createAssertionVerifier({
      keySets: createRemoteKeySets({ policy: { allowPrivate: false } }),
      seen: createMemorySeenOnce(),
      publicUrl: config().publicUrl,
    }),
    log: pino({ level: "silent" }),
  });
  const attempt = (id: string, secret: string) =>
    authenticate({
      envId: environmentId,
      envSlug: "sso-qa",
      presented: { clientId: id, clientSecret: secret, method: "client_secret_basic" },
      clientAddress: "198.51.100.7",
    });
  return { work, attempt };
}

/** The statements and hashes of one refused attempt, after `warm` has run on the same authenticator. */
async function refusedWork(id: string, warm?: (attempt: ReturnType<typeof authenticator>["attempt"]) => Promise<unknown>) {
  const { work, attempt } = authenticator();
  await warm?.(attempt);
  const statements: string[] = [];
  heard = (sql) => statements.push(sql);
  work.hashes = 0;
  const outcome = await attempt(id, `${clientSecret}x`).then(
    () => "accepted",
    (error: { error?: string }) => error.error,
  );
  heard = () => undefined;
  expect(outcome).toBe("invalid_client");
  return { statements: statements.sort(), hashes: work.hashes };
}

const UNKNOWN = "gci_000000000000000000000000";

describe("a client id that does not exist", () => {
  it("costs the statements and hashes of a wrong secret, whether either was kept or not", async () => {
    const wrongSecretFresh = await refusedWork(clientId);
    const wrongSecretKept = await refusedWork(clientId, (attempt) => attempt(clientId, clientSecret));
    const unknownFresh = await refusedWork(UNKNOWN);
    const unknownKept = await refusedWork(UNKNOWN, (attempt) => attempt(UNKNOWN, "gsk_wrong").catch(() => undefined));

    expect(wrongSecretFresh.hashes).toBe(1);
    expect(wrongSecretFresh.statements).toHaveLength(3);
    expect(wrongSecretKept).toEqual(wrongSecretFresh);
    expect(unknownFresh).toEqual(wrongSecretFresh);
    expect(unknownKept).toEqual(wrongSecretFresh);
  });

  it("sends its three statements before any of them answers, for a known id as for an unknown one", async () => {
    for (const id of [clientId, UNKNOWN]) {
      const { attempt } = authenticator();
      // Each statement is stamped with the number of event-loop turns since the first: an
      // answer from the database needs a turn, so statements sent after one are stamped 1 or more.
      let turns = 0;
      setImmediate(() => turns++);
      const stamps: number[] = [];
      heard = () => stamps.push(turns);
      await attempt(id, "gsk_wrong").catch(() => undefined);
      expect(stamps).toEqual([0, 0, 0]);
    }
  });
});
