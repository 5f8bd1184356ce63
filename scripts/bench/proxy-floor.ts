// The least a Node server does for the proxy workload's two kinds of call, which the bench
// reads Gatehouse's gateway against: node:http forwarding a GET through one undici pool, and
// node:http answering a stored copy of the upstream's answer, with no token, limit, cache
// lookup, log or metric. It reads the upstream's 1 KB body whole before answering, which
// costs less than piping it (a stream pipeline per call), and so is a ceiling for this
// workload only, not a proxy for bodies of any size. It runs on PROCESSES processes through
// node:cluster, as GATEWAY_PROCESSES runs the gateway, so that the bench shows what a
// second process can give on this machine at all. Run by the bench as a child process:
//   UPSTREAM_URL=… PORT=… PROCESSES=… node --import tsx scripts/bench/proxy-floor.ts
import cluster from "node:cluster";
import { createServer } from "node:http";
import { Pool } from "undici";
import { FLOOR_STORED_PREFIX, GATEWAY_API_PREFIX } from "./options";

async function serve(): Promise<void> {
  const upstream = new Pool(process.env.UPSTREAM_URL!);
  const first = await upstream.request({ method: "GET", path: "/items/0" });
  const stored = Buffer.from(await first.body.arrayBuffer());
  const storedHeaders = { "content-type": String(first.headers["content-type"]), "content-length": stored.length, age: "0", "cache-status": "floor; hit" };
  createServer((req, res) => {
    const url = req.url!;
    if (url.startsWith(FLOOR_STORED_PREFIX)) return void res.writeHead(200, storedHeaders).end(stored);
    upstream
      .request({ method: "GET", path: url.replace(GATEWAY_API_PREFIX, "") })
      .then(async (answer) => {
        const body = Buffer.from(await answer.body.arrayBuffer());
        res.writeHead(answer.statusCode, { "content-type": String(answer.headers["content-type"]), "content-length": body.length }).end(body);
      })
      .catch(() => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
  }).listen(Number(process.env.PORT), "127.0.0.1");
}

const processes = Number(process.env.PROCESSES ?? 1);
if (cluster.isPrimary && processes > 1) {
  for (let worker = 0; worker < processes; worker++) cluster.fork();
} else {
  await serve();
}
