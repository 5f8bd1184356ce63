// The hand-written service the benchmark compares Gatehouse with: the three
// Notifications operations on plain node:http, the database driver with
// prepared statements, jose verification of every token against Gatehouse's
// JWKS, the same JSON bodies, ETags, Link header and problem+json errors, and
// no caches. Run by the bench as a child process, with the environment's JWKS as
// Gatehouse published it:
//   DATABASE_URL=… GATEHOUSE_URL=… JWKS=… SQLITE_SYNCHRONOUS=… DATABASE_POOL_SIZE=… PORT=… node --import tsx scripts/bench/baseline-server.ts
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createLocalJWKSet, type JWTPayload, jwtVerify } from "jose";
import { parseConfig } from "../../lib/config";
import { openBaselineStore, type Owner, type Row } from "./baseline-store";

const ENV = "sso-qa";
const STATUSES = new Set(["unread", "read", "archived"]);
const gatehouse = process.env.GATEHOUSE_URL!;
const issuer = `${gatehouse}/gw/${ENV}`;
const prefix = `/gw/${ENV}/notifications/v1/notifications`;
const store = openBaselineStore(process.env.DATABASE_URL!, {
  sqliteSynchronous: process.env.SQLITE_SYNCHRONOUS ?? "FULL",
  postgresPoolSize: parseConfig(process.env).databasePoolSize,
});
const jwks = createLocalJWKSet(JSON.parse(process.env.JWKS!));
const environmentId = (await store.environmentId(ENV))!;

class Problem extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly title: string,
  ) {
    super(title);
  }
}

function resource(row: Row) {
  const { id, title, body, category, severity, status, link, createdAt, updatedAt, readAt } = row;
  return { id, title, body, category, severity, status, link, createdAt, updatedAt, readAt };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "private, no-cache", ...headers });
  res.end(JSON.stringify(body));
}

function encodeCursor(row: Row): string {
  return Buffer.from(JSON.stringify([Date.parse(row.createdAt), row.id])).toString("base64url");
}

function decodeCursor(value: string): { createdAt: Date; id: string } {
  const [time, id] = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as [number, string];
  return { createdAt: new Date(time), id };
}

async function authenticate(req: IncomingMessage, scope: string): Promise<Owner> {
  const [scheme, token] = (req.headers.authorization ?? "").split(" ");
  if (scheme !== "Bearer" || !token) throw new Problem(401, "token-missing", "Unauthorized");
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, jwks, { algorithms: ["RS256"], issuer, audience: `${issuer}/`, typ: "at+jwt", clockTolerance: 30 }));
  } catch {
    throw new Problem(401, "token-invalid", "Unauthorized");
  }
  if (
    !String(payload.scope ?? "")
      .split(" ")
      .includes(scope)
  )
    throw new Problem(403, "scope-missing", "Forbidden");
  return { environmentId, clientId: String(payload.client_id) };
}

async function readBody(req: IncomingMessage): Promise<{ status?: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as { status?: string };
}

async function list(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const owner = await authenticate(req, "notifications:read");
  const limit = Number(url.searchParams.get("limit") ?? 20);
  const cursor = url.searchParams.get("cursor");
  const rows = await store.list({ owner, limit: limit + 1, cursor: cursor ? decodeCursor(cursor) : undefined });
  const items = rows.slice(0, limit);
  const nextCursor = rows.length > limit ? encodeCursor(items.at(-1)!) : null;
  const headers: Record<string, string> = {};
  if (nextCursor) {
    const next = new URL(url);
    next.searchParams.set("cursor", nextCursor);
    headers.link = `<${next.toString()}>; rel="next"`;
  }
  send(res, 200, { items: items.map(resource), nextCursor }, headers);
}

async function get(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
  const row = await store.get(await authenticate(req, "notifications:read"), id);
  if (!row) throw new Problem(404, "not-found", "Not Found");
  const etag = `"v${row.version}"`;
  if (req.headers["if-none-match"] === etag) {
    res.writeHead(304, { etag, "cache-control": "private, no-cache" }).end();
    return;
  }
  send(res, 200, resource(row), { etag });
}

async function put(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
  const owner = await authenticate(req, "notifications:write");
  const { status } = await readBody(req);
  if (!status || !STATUSES.has(status)) throw new Problem(400, "validation-failed", "The request is not valid");
  for (;;) {
    const row = await store.get(owner, id);
    if (!row) throw new Problem(404, "not-found", "Not Found");
    if (row.status === status) return send(res, 200, resource(row), { etag: `"v${row.version}"` });
    const now = new Date();
    const readAt = status === "unread" ? null : status === "read" ? (row.readAt ? new Date(row.readAt) : now) : row.readAt ? new Date(row.readAt) : null;
    if (await store.setStatus(owner, id, row.version, status, readAt, now)) {
      const updated = { ...row, status, readAt: readAt ? readAt.toISOString() : null, updatedAt: now.toISOString(), version: row.version + 1 };
      return send(res, 200, resource(updated), { etag: `"v${updated.version}"` });
    }
  }
}

async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", gatehouse);
  if (url.pathname === prefix && req.method === "GET") return list(req, res, url);
  const id = url.pathname.startsWith(`${prefix}/`) ? url.pathname.slice(prefix.length + 1) : undefined;
  if (id && req.method === "GET") return get(req, res, id);
  if (id && req.method === "PUT") return put(req, res, id);
  if (url.pathname === "/") return send(res, 200, { ok: true });
  throw new Problem(404, "not-found", "Not Found");
}

createServer((req, res) => {
  route(req, res).catch((error: unknown) => {
    const problem = error instanceof Problem ? error : new Problem(500, "internal", "Internal Server Error");
    res.writeHead(problem.status, { "content-type": "application/problem+json" });
    res.end(JSON.stringify({ type: `${gatehouse}/problems/${problem.type}`, title: problem.title, status: problem.status, instance: req.url }));
  });
}).listen(Number(process.env.PORT), "127.0.0.1");
