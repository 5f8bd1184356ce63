// A real upstream process for the gateway's resilience tests: it counts what it
// receives, so a test can tell which target served a call and whether a call was
// sent twice. `node counting-upstream.mjs <port> <name>`; it prints "listening"
// once it accepts connections.
//   GET /__counts        what it received, as { "METHOD /path": count }
//   POST /__mode?set=M   ok (default), fail (500 on every call), slow (answers after 1 s)
//   GET /health          200, or 503 in fail mode
//   any /reset path      counted, then the connection is destroyed before any answer byte
//   anything else        200 { target, method, path } after the body is read
import { createServer } from "node:http";

const [port, name] = process.argv.slice(2);
const counts = {};
let mode = "ok";

const server = createServer((req, res) => {
  const path = new URL(req.url, "http://upstream").pathname;
  if (path === "/__counts") return void res.end(JSON.stringify(counts));
  if (path === "/__mode") {
    mode = new URL(req.url, "http://upstream").searchParams.get("set") ?? "ok";
    return void res.end(mode);
  }
  if (path === "/health") {
    res.statusCode = mode === "fail" ? 503 : 200;
    return void res.end();
  }
  const key = `${req.method} ${path}`;
  counts[key] = (counts[key] ?? 0) + 1;
  if (path.endsWith("/reset")) return void req.socket.destroy();
  req.resume();
  req.on("end", () => {
    const answer = () => {
      res.writeHead(mode === "fail" ? 500 : 200, { "content-type": "application/json" });
      res.end(JSON.stringify({ target: name, method: req.method, path }));
    };
    if (mode === "slow") setTimeout(answer, 1_000);
    else answer();
  });
});
server.listen(Number(port), "127.0.0.1", () => console.log("listening"));
