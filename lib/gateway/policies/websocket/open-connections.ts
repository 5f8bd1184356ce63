import type { Logger } from "pino";
import type { CredentialStates } from "../../../oauth/credential-states";
import type { RevocationList } from "../../../oauth/revoked-tokens";
import { type ConnectionPlaces, createMemoryConnectionPlaces } from "./connection-places";

/** RFC 6455 §7.4.1: the message violated the endpoint's policy. */
export const POLICY_VIOLATION = 1008;

/** A tunnelled WebSocket connection, as the limit and the credential sweep see it. */
export type OpenConnection = {
  envId: string;
  apiId: string;
  /** the token it was opened with; null on a public API */
  caller: { clientId: string; jti: string; expiresAt: number } | null;
  /** closes both sides with `code` */
  close(code: number, reason: string): void;
};

export type OpenConnections = {
  /**
   * Takes one of `max` places of `holder` (a client, or an address on a public API) in the
   * environment, from the handshake on, so that handshakes under way count too; undefined
   * when all are taken. The function it returns gives the place back; calling it again does nothing.
   */
  reserve(envId: string, holder: string, max: number): Promise<(() => void) | undefined>;
  add(connection: OpenConnection): void;
  delete(connection: OpenConnection): void;
  /** Closes every connection with `code`, as the process stops. */
  closeAll(code: number, reason: string): void;
  /** Starts checking every connection's token and credential each `intervalMs`; returns what stops it. */
  startSweep(input: { revocations: RevocationList; states: CredentialStates; intervalMs: number; log: Pick<Logger, "warn"> }): () => void;
};

/** Why a connection opened with this token may not stay open, or null while it may. */
async function revokedBecause(connection: OpenConnection, revocations: RevocationList, states: CredentialStates): Promise<string | null> {
  const { caller } = connection;
  if (!caller) return null;
  if (caller.expiresAt * 1000 <= Date.now()) return "access token expired";
  if (await revocations.isRevoked(caller.jti)) return "access token revoked";
  const state = await states.get(caller.clientId);
  if (!state?.active || state.environmentId !== connection.envId) return "credential revoked";
  if (!state.grants.has(connection.apiId)) return "API no longer granted";
  return null;
}

/**
 * The process's tunnelled connections, their count per client (in `places`: this process's own,
 * or every gateway process's through Redis), and the sweep that closes those whose token no longer holds.
 */
export function createOpenConnections(places: ConnectionPlaces = createMemoryConnectionPlaces()): OpenConnections {
  const connections = new Set<OpenConnection>();
  return {
    reserve: (envId, holder, max) => places.take(`${envId}\n${holder}`, max),
    add: (connection) => void connections.add(connection),
    delete: (connection) => void connections.delete(connection),
    closeAll(code, reason) {
      for (const connection of connections) connection.close(code, reason);
    },
    startSweep({ revocations, states, intervalMs, log }) {
      let sweeping = false;
      // The caches it reads are at most GATEWAY_CACHE_MAX_AGE_MS old, so a revocation closes the connection within that and one interval.
      const timer = setInterval(() => {
        if (sweeping || connections.size === 0) return;
        sweeping = true;
        const checks = [...connections].map((connection) =>
          revokedBecause(connection, revocations, states).then(
            (reason) => reason && connection.close(POLICY_VIOLATION, reason),
            // A database that does not answer leaves the connection open, as the caches' last answer stands.
            (error: unknown) => log.warn({ err: error }, "could not check an open WebSocket connection's credential"),
          ),
        );
        void Promise.all(checks).finally(() => (sweeping = false));
      }, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
