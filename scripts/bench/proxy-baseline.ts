// The hand-written proxy the bench compares Gatehouse's gateway with: node:http,
// jose verification of every token against the environment's JWKS, one undici
// pool to the upstream, bodies piped both ways with backpressure; no caches,
// rate limits or logs. Run by the bench as a child process:
//   GATEHOUSE_URL=… JWKS=… UPSTREAM_URL=… PORT=… node --import tsx scripts/bench/proxy-baseline.ts
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { createLocalJWKSet, jwtVerify } from "jose";
import { type Dispatcher, Pool } from "undici";
import { GATEWAY_API_PREFIX } from "./options";

const issuer = `${process.env.GATEHOUSE_URL}/gw/sso-qa`;
const jwks = createLocalJWKSet(JSON.parse(process.env.JWKS!));
const upstream = new Pool(process.env.UPSTREAM_URL!);
/** Hop-by-hop fields, the host undici sets, and the token, which stays here. */
const NOT_FORWARDED = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "host", "authorization"]);

function forwardable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !NOT_FORWARDED.has(name)));
}

async function verified(req: IncomingMessage): Promise<boolean> {
  const [scheme, token] = (req.headers.authorization ?? "").split(" ");
  if (scheme !== "Bearer" || !token) return false;
  return jwtVerify(token, jwks, { issuer, algorithms: ["RS256"] }).then(
    () => true,
    () => false,
  );
}

async function proxy(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!(await verified(req))) return void res.writeHead(401).end();
  const path = req.url!.replace(GATEWAY_API_PREFIX, "");
  const answer = await upstream.request({
    method: req.method as Dispatcher.HttpMethod,
    path: path.startsWith("/") ? path : `/${path}`,
    headers: forwardable(req.headers),
    body: req.method === "GET" || req.method === "HEAD" ? null : req,
  });
  res.writeHead(answer.statusCode, forwardable(answer.headers));
  await pipeline(answer.body, res);
}

createServer((req, res) => {
  proxy(req, res).catch(() => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
}).listen(Number(process.env.PORT), "127.0.0.1");
