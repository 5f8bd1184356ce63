import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { log } from "../log";
import { lingeringClose } from "./lingering-close";
import { problem, type ProblemError, problemPlainResponse } from "./problem";
import { rawResponse } from "./raw-response";
import { MAX_REQUEST_LINE } from "./request-head";
import { newRequestId } from "./request-id";

type ParserError = Error & { code?: string; rawPacket?: Buffer };

/** A request line longer than MAX_REQUEST_LINE, when Node's header limit trips, is a URL problem rather than a header one. */
function requestLineTooLong(rawPacket: Buffer | undefined): boolean {
  if (!rawPacket || !/^[A-Z]+ \S/.test(rawPacket.subarray(0, 16).toString("latin1"))) return false;
  const end = rawPacket.indexOf("\r\n");
  return end === -1 || end > MAX_REQUEST_LINE;
}

/** What a refusal by Node's HTTP parser means to the client, as one of our problem types. */
export function parserProblem(error: ParserError): ProblemError {
  switch (error.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return problem("request-timeout", {
        detail: "The request did not arrive completely in time; send it again on a new connection.",
      });
    case "HPE_HEADER_OVERFLOW":
      return requestLineTooLong(error.rawPacket)
        ? problem("uri-too-long", { detail: "The request line is longer than the server reads." })
        : problem("headers-too-large", {
            detail: "The request's header fields are larger than the server reads (16 KiB in all).",
          });
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return problem("payload-too-large", { detail: "The chunk extensions of the request body are too large." });
    default:
      return problem("malformed-request", { detail: "The request is not valid HTTP/1.1 and could not be read." });
  }
}

/** The problem as raw HTTP/1.1 bytes, for a connection no ServerResponse owns (Node's parser gave up, or a CONNECT). */
export function rawProblemResponse(problem: ProblemError, requestId: string): string {
  const response = problemPlainResponse(problem, { requestId });
  return rawResponse({ ...response, body: String(response.body) });
}

/** What the parser answered on a connection, perhaps in the middle of a request body the gateway is forwarding. */
const refusals = new WeakMap<Duplex, ProblemError>();

/** The problem the parser answered on this connection: a body that stops there was refused, not cut off by the client. */
export function parserRefusal(socket: Duplex): ProblemError | undefined {
  return refusals.get(socket);
}

/**
 * Answers every request Node's parser refuses (malformed request lines and
 * headers, oversized headers or URLs, bad chunked framing, timeouts) with a
 * problem document and a request id instead of Node's bare status line.
 */
export function attachClientErrorHandler(server: Server): void {
  server.on("clientError", (error: ParserError, socket: Duplex) => {
    // Answered already: the parser refuses again each chunk the client still sends, which the
    // lingering close drops; destroying the connection here would reset it under the answer.
    if (refusals.has(socket)) return;
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const problem = parserProblem(error);
    // A connection that ends mid-message is the client leaving, which no answer reaches.
    if (error.code !== "HPE_INVALID_EOF_STATE") refusals.set(socket, problem);
    const requestId = newRequestId();
    log.info({ requestId, status: problem.status, parserError: error.code }, "request refused by the HTTP parser");
    lingeringClose(socket, rawProblemResponse(problem, requestId));
  });
}
