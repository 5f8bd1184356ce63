// npm run bench's proxy workload: Gatehouse's gateway-only server on one process and
// on every core (GATEWAY_PROCESSES=auto, with Redis), the full server, a hand-written
// Node proxy, HAProxy and the upstream itself under the same load, taken in turns, then
// each one's streaming figures, also in turns.
//
// It runs on a fresh SQLite database with a Gatehouse of its own rather than on
// the Notifications bench's: that one ends switched to the rollback journal and
// loaded with another workload, and the proxy's figures should depend on neither.
import { availableParallelism } from "node:os";
import { decodeProtectedHeader, type JWK } from "jose";
import { GATEWAY_ENV, GATEWAY_NODE_ARGS } from "../../server/server-command";
import { send } from "./http";
import { measureInTurns, proxyPostTarget, proxyTarget, storedTarget } from "./load";
import { BENCH_ENV, FLOOR_STORED_PREFIX, PROXY_ROUNDS, PROXY_SECONDS } from "./options";
import { answersAtAll, freePort, type Server, startProgram, startServer } from "./processes";
import { BENCH_REDIS_URL, isolatedRedisPrefix } from "./redis-prefix";
import { checkCached, checkFloor, checkProxies } from "./proxy-checks";
import { startHaproxy } from "./proxy-haproxy";
import { measureStreamingInTurns, type Streaming } from "./proxy-streaming";
import { checkValidated, JSON_POST_BODY, VALIDATED_PROXY_API } from "./proxy-validated";
import { CACHED_PROXY_API, loadProxyWorkload, PROXY_API } from "./proxy-workload";
import type { Measurement } from "./report";
import { withTokens } from "./tokens";

export type StartGatehouse = (databaseUrl: string, args?: readonly string[], publicUrl?: string, env?: Record<string, string>) => Promise<Server>;

export type Figures = { load: Measurement; streaming: Streaming };
export type ProxyResults = {
  gatewayOnly: Figures;
  /** the gateway-only server on GATEWAY_PROCESSES=auto, with Redis, which more than one process needs */
  gatewayCluster: Figures;
  fullServer: Figures;
  handWritten: Figures;
  haproxy?: Figures;
  upstream: Figures;
  /** the gateway-only process answering GETs from its response cache, measured in the same turns as the others */
  cachedGet: Measurement;
  /** the gateway-only process forwarding a 1 KB JSON POST, without request validation and under `enforce`, in the same turns */
  jsonPost: Measurement;
  validatedPost: Measurement;
  /** the least a Node server does for the same calls (proxy-floor.ts), in the same turns: what this machine allows a Node gateway */
  floor: Floor;
};

/** The minimal server's GETs: forwarded on 1 process and on every core, and answered from its stored copy on 1. */
type Floor = { proxied: Measurement; proxiedOnEveryCore: Measurement; stored: Measurement };

/** Items the cached GETs ask for: each client's are stored during the warm-up, so the rounds measure hits. */
const CACHED_ITEMS = 100;

const PREFIX = `/gw/${BENCH_ENV}/${PROXY_API}`;

type Contender = { role: keyof ProxyResults; name: string; server: Server };

async function startFloor(upstreamOrigin: string, processes: number): Promise<Server> {
  const env = { UPSTREAM_URL: upstreamOrigin, PROCESSES: String(processes) };
  return startProgram(
    `minimal server, ${processes} process(es)`,
    await freePort(),
    process.execPath,
    ["--import", "tsx", "scripts/bench/proxy-floor.ts"],
    env,
    answersAtAll,
  );
}

async function startHandWritten(gatehouseOrigin: string, jwks: string, upstreamOrigin: string): Promise<Server> {
  const env = { GATEHOUSE_URL: gatehouseOrigin, JWKS: jwks, UPSTREAM_URL: upstreamOrigin };
  return startProgram("hand-written proxy", await freePort(), process.execPath, ["--import", "tsx", "scripts/bench/proxy-baseline.ts"], env, answersAtAll);
}

/** The key that signed `token`, out of the environment's key set. */
function signingKey(jwks: string, token: string): JWK {
  const { kid } = decodeProtectedHeader(token);
  const key = (JSON.parse(jwks) as { keys: JWK[] }).keys.find((candidate) => candidate.kid === kid);
  if (!key) throw new Error(`the JWKS has no key "${kid}"`);
  return key;
}

export async function benchProxy(database: { url: string; drop(): Promise<void> }, startGatehouse: StartGatehouse): Promise<ProxyResults> {
  const stops: (() => Promise<void>)[] = [() => database.drop()];
  const started = (server: Server) => {
    stops.unshift(() => server.stop());
    return server;
  };
  try {
    const upstream = started(await startServer("upstream", await freePort(), ["--import", "tsx", "scripts/bench/proxy-upstream.ts"], {}));
    const fullServer = started(await startGatehouse(database.url));
    process.stderr.write("loading the proxy workload...\n");
    const clients = await withTokens(fullServer.origin, await loadProxyWorkload(database.url, upstream.origin));
    const gatewayOnly = started(await startGatehouse(database.url, GATEWAY_NODE_ARGS, fullServer.origin, GATEWAY_ENV));
    const redis = isolatedRedisPrefix();
    stops.push(redis.cleanup);
    const clusterEnv = { ...GATEWAY_ENV, GATEWAY_PROCESSES: "auto", REDIS_URL: BENCH_REDIS_URL, REDIS_KEY_PREFIX: redis.prefix };
    const gatewayCluster = started(await startGatehouse(database.url, GATEWAY_NODE_ARGS, fullServer.origin, clusterEnv));
    const jwks = (await send(`${fullServer.origin}/gw/${BENCH_ENV}/.well-known/jwks.json`)).body;
    const handWritten = started(await startHandWritten(fullServer.origin, jwks, upstream.origin));
    const token = clients[0]!.token;
    const issuer = `${fullServer.origin}/gw/${BENCH_ENV}`;
    const floor = started(await startFloor(upstream.origin, 1));
    const floorOnEveryCore = started(await startFloor(upstream.origin, availableParallelism()));
    const haproxy = await startHaproxy({ jwk: signingKey(jwks, token), issuer, upstream: upstream.origin });
    if (haproxy) started(haproxy);
    const contenders: Contender[] = [
      { role: "gatewayOnly", name: "gateway-only process proxy", server: gatewayOnly },
      { role: "gatewayCluster", name: `gateway-only, ${availableParallelism()} processes`, server: gatewayCluster },
      { role: "fullServer", name: "Gatehouse (npm start) proxy", server: fullServer },
      { role: "handWritten", name: "hand-written proxy", server: handWritten },
      ...(haproxy ? [{ role: "haproxy", name: "HAProxy", server: haproxy } satisfies Contender] : []),
      { role: "upstream", name: "upstream directly", server: upstream },
    ];
    await checkProxies({ upstream, proxies: contenders.filter(({ server }) => server !== upstream), path: `${PREFIX}/items/1`, token });
    await checkCached({ server: gatewayOnly, path: `/gw/${BENCH_ENV}/${CACHED_PROXY_API}/items/1`, token });
    await checkValidated({ server: gatewayOnly, token });
    await checkFloor({ upstream, floors: [floor, floorOnEveryCore], path: `${PREFIX}/items/1`, storedPath: `${FLOOR_STORED_PREFIX}items/1` });
    const posts = [
      { name: "gateway-only process, 1 KB JSON POST", server: gatewayOnly, target: proxyPostTarget(gatewayOnly.origin, PROXY_API, clients, JSON_POST_BODY) },
      {
        name: "gateway-only process, 1 KB JSON POST validated",
        server: gatewayOnly,
        target: proxyPostTarget(gatewayOnly.origin, VALIDATED_PROXY_API, clients, JSON_POST_BODY),
      },
    ];
    const cached = {
      name: "gateway-only process, cached GET",
      server: gatewayOnly,
      target: proxyTarget(gatewayOnly.origin, CACHED_PROXY_API, clients, CACHED_ITEMS),
    };
    const floors = [
      { name: "minimal server proxy", server: floor, target: proxyTarget(floor.origin, PROXY_API, clients) },
      {
        name: `minimal server proxy, ${availableParallelism()} processes`,
        server: floorOnEveryCore,
        target: proxyTarget(floorOnEveryCore.origin, PROXY_API, clients),
      },
      { name: "minimal server, stored answer", server: floor, target: storedTarget(floor.origin, clients) },
    ];
    const loads = await measureInTurns(
      [...contenders.map(({ name, server }) => ({ name, server, target: proxyTarget(server.origin, PROXY_API, clients) })), cached, ...posts, ...floors],
      { rounds: PROXY_ROUNDS, seconds: PROXY_SECONDS, shuffled: true },
    );
    const streaming = await measureStreamingInTurns(contenders, PREFIX, token);
    const figures = Object.fromEntries(contenders.map(({ role }, index) => [role, { load: loads[index]!, streaming: streaming[index]! }]));
    const [cachedGet, jsonPost, validatedPost, proxied, proxiedOnEveryCore, stored] = loads.slice(contenders.length);
    return {
      ...figures,
      cachedGet: cachedGet!,
      jsonPost: jsonPost!,
      validatedPost: validatedPost!,
      floor: { proxied: proxied!, proxiedOnEveryCore: proxiedOnEveryCore!, stored: stored! },
    } as ProxyResults;
  } finally {
    for (const stop of stops) await stop();
  }
}
