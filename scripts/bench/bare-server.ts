// The bare node:http server: the ceiling of what Node answers on this machine.
import { createServer } from "node:http";

createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end('{"ok":true}');
}).listen(Number(process.env.PORT), "127.0.0.1");
