import { beforeAll, describe, expect, it } from "vitest";
import { migratedDatabase } from "../database/migrated-database";
import type { DataPlaneStore } from "../data-plane/store";
import { ProblemError } from "../http/problem-error";
import { createCredentialStates } from "../oauth/credential-states";
import { createRevocationList } from "../oauth/revoked-tokens";
import { createKeyStore } from "../oauth/signing-keys";

/** The store of a database whose connection is closed: every read fails as a database out of reach does. */
let gone: DataPlaneStore;

beforeAll(async () => {
  const fixture = await migratedDatabase();
  gone = fixture.store;
  await fixture.close();
});

/** A logger that keeps the messages it is given. */
function logged(): { log: { warn: (...args: unknown[]) => void }; messages: string[] } {
  const messages: string[] = [];
  return { log: { warn: (...args) => messages.push(String(args.at(-1))) }, messages };
}

async function expectNotReady(call: Promise<unknown>): Promise<void> {
  const error = await call.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ProblemError);
  expect(error).toMatchObject({ code: "not-ready", status: 503, extensions: { down: ["database"] } });
}

describe("a copy of the database a call waits for, while the database does not answer", () => {
  it("refuses credential states 503 not-ready, logged once", async () => {
    const { log, messages } = logged();
    const states = createCredentialStates({ store: gone, maxAgeMs: 0, log });
    await Promise.all([expectNotReady(states.get("gci_a")), expectNotReady(states.get("gci_a"))]);
    await expectNotReady(states.get("gci_b"));
    await expectNotReady(states.refresh("gci_a"));
    expect(messages).toEqual(["credential states: the database does not answer; calls that need it are refused until it does"]);
  });

  it("refuses the revocation list and a revocation 503 not-ready, logged once", async () => {
    const { log, messages } = logged();
    const revocations = createRevocationList({ store: gone, maxAgeMs: 0, log });
    await expectNotReady(revocations.isRevoked("jti-1"));
    await expectNotReady(revocations.revoke({ jti: "jti-1", environmentId: "env_1", expiresAt: new Date(Date.now() + 60_000) }));
    await expectNotReady(revocations.isRevoked("jti-1"));
    expect(messages).toEqual(["revoked tokens: the database does not answer; calls that need it are refused until it does"]);
  });

  it("refuses published keys and a first signing key 503 not-ready, logged once", async () => {
    const { log, messages } = logged();
    const keys = createKeyStore({ store: gone, authSecret: "a-secret-of-at-least-thirty-two-characters", maxAgeMs: 0, log });
    await expectNotReady(keys.publishedKey("kid-1"));
    await expectNotReady(keys.jwks("env_1"));
    await expectNotReady(keys.signingKey("env_1"));
    expect(messages).toEqual(["signing keys: the database does not answer; calls that need it are refused until it does"]);
  });
});
