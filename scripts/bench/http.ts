// One HTTP exchange on a fresh connection. The bench's own requests come between
// long pauses (loading data, measuring), after which fetch's pooled connections
// may already be closed by the server.
import { request as httpRequest } from "node:http";

export type Exchange = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

export function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? "GET", headers: init.headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}
