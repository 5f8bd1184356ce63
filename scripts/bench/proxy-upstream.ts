// The upstream behind every proxy of the proxy workload, on bare node:http: a
// fixed 1 KB JSON body on every path, and three paths for streaming. It matches
// on the path's end, so each proxy reaches the same handler whatever prefix it
// forwards. Run by the bench as a child process:
//   PORT=… node --import tsx scripts/bench/proxy-upstream.ts
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { pipeline, Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { BIG_BYTES, bigChunks } from "./proxy-big-body";

const SSE_EVENTS = 5;
const SSE_SPACING_MS = 300;

const padding = "x".repeat(1024 - JSON.stringify({ id: "item", padding: "" }).length);
const FIXED_BODY = JSON.stringify({ id: "item", padding });

function json(res: ServerResponse, body: string): void {
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
}

/** pipeline waits for the client to take each chunk, so 64 MiB never sit in this process. */
function sendBig(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "application/octet-stream", "content-length": BIG_BYTES });
  pipeline(Readable.from(bigChunks()), res, () => {});
}

async function countUpload(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let bytes = 0;
  for await (const chunk of req) bytes += (chunk as Buffer).length;
  json(res, JSON.stringify({ bytes }));
}

async function sendEvents(res: ServerResponse): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (let event = 1; event <= SSE_EVENTS; event++) {
    if (event > 1) await sleep(SSE_SPACING_MS);
    res.write(`id: ${event}\ndata: {"event":${event}}\n\n`);
  }
  res.end();
}

createServer((req, res) => {
  const path = (req.url ?? "/").split("?")[0]!;
  if (path.endsWith("/big")) return sendBig(res);
  if (path.endsWith("/upload")) return void countUpload(req, res).catch(() => res.destroy());
  if (path.endsWith("/sse")) return void sendEvents(res).catch(() => res.destroy());
  req.resume();
  json(res, FIXED_BODY);
}).listen(Number(process.env.PORT), "127.0.0.1");
