// HAProxy from Debian as the proxy workload's peer: every token verified with
// jwt_verify against the environment's public key, its alg, iss and exp
// checked, 401 otherwise; `/gw/sso-qa/{api}` stripped as the gateway strips it;
// connections to the upstream kept and shared. Where haproxy is missing the
// bench says so and goes on without it; it never installs anything.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createPublicKey, type JsonWebKey } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { answersAtAll, freePort, type Server, startProgram } from "./processes";
import { onPath } from "./programs";

/**
 * Two threads, as the targets of the gateway on N processes are set against, whatever the
 * machine's cores; Debian's defaults otherwise. Without `option http-no-delay` HAProxy holds a
 * stream's small chunks for up to 200 ms to send fuller packets, which its first
 * server-sent event shows; it is measured as it ships.
 */
function config(input: { port: number; keyFile: string; issuer: string; upstream: URL }): string {
  return `global
  nbthread 2

defaults
  mode http
  timeout connect 5s
  timeout client 60s
  timeout server 60s

frontend gateway
  bind 127.0.0.1:${input.port}
  http-request deny deny_status 401 unless { http_auth_bearer -m found }
  http-request set-var(txn.alg) http_auth_bearer,jwt_header_query('$.alg')
  http-request set-var(txn.iss) http_auth_bearer,jwt_payload_query('$.iss')
  http-request set-var(txn.exp) http_auth_bearer,jwt_payload_query('$.exp','int')
  http-request set-var(txn.now) date()
  http-request deny deny_status 401 unless { var(txn.alg) -m str RS256 } { var(txn.iss) -m str ${input.issuer} } { var(txn.exp),sub(txn.now) -m int gt 0 } { http_auth_bearer,jwt_verify("RS256","${input.keyFile}") -m int 1 }
  http-request replace-path ^/gw/sso-qa/[^/]+(.*)$ \\1
  default_backend upstream

backend upstream
  http-reuse always
  server upstream ${input.upstream.host}
`;
}

/** HAProxy in front of `upstream`, trusting the tokens `jwk` signs for `issuer`; undefined where haproxy is not installed. */
export async function startHaproxy(input: { jwk: JsonWebKey; issuer: string; upstream: string }): Promise<Server | undefined> {
  const haproxy = onPath("haproxy");
  if (!haproxy) {
    process.stderr.write("HAProxy not found: skipped (apt-get install haproxy)\n");
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), "gatehouse-bench-haproxy-"));
  const keyFile = join(dir, "jwt-key.pem");
  writeFileSync(keyFile, createPublicKey({ key: input.jwk, format: "jwk" }).export({ type: "spki", format: "pem" }));
  const port = await freePort();
  writeFileSync(join(dir, "haproxy.cfg"), config({ port, keyFile, issuer: input.issuer, upstream: new URL(input.upstream) }));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const server = await startProgram("HAProxy", port, haproxy, ["-f", join(dir, "haproxy.cfg"), "-db"], {}, answersAtAll).catch((error: unknown) => {
    removeDir();
    throw error;
  });
  return {
    ...server,
    async stop() {
      await server.stop();
      removeDir();
    },
  };
}
