import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedWebhook = { headers: IncomingHttpHeaders; body: string };
/** How the receiver answers one request: a status, "hang" to never answer, or "large" for a 200 with a 64 KiB body. */
export type WebhookAnswer = number | "hang" | "large";

export type WebhookReceiver = {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** answers for the next requests, in order; 200 once they run out */
  answer(...answers: WebhookAnswer[]): void;
  close(): Promise<void>;
};

/** A real HTTP server on 127.0.0.1 that keeps every POST it receives, headers and raw body. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const queue: WebhookAnswer[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      const answer = queue.shift() ?? 200;
      if (answer === "hang") return;
      if (answer === "large") response.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(64 * 1024));
      else response.writeHead(answer, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    answer: (...answers) => queue.push(...answers),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
