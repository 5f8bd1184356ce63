import type { Server } from "node:http";
import { rawProblemResponse } from "./client-error";
import { lingeringClose } from "./lingering-close";
import { nodeHeaders, writePlainResponse } from "./node-message";
import { problem, problemPlainResponse } from "./problem";
import { requestIdFrom } from "./request-id";
import { methodNotServed } from "./served-methods";

/** What of an `Expect` value a refusal repeats, at most: enough to recognise it. */
const EXPECT_SHOWN = 100;

/**
 * Answers the two requests Node answers itself when nobody listens, and then without a problem
 * or a request id: a CONNECT, whose connection it closes unanswered, and an `Expect` other than
 * `100-continue`, which gets a bare 417. Gatehouse serves no CONNECT (405 `method-not-allowed`,
 * like TRACE) and meets no other expectation (417 `expectation-failed`, RFC 9110 §10.1.1); both
 * close the connection, as every refusal before routing does.
 */
export function attachUnservedRequestHandlers(server: Server): void {
  server.on("connect", (req, socket) => {
    // Node emits `connect` for CONNECT only, a method SERVED_METHODS never holds.
    const refusal = methodNotServed("CONNECT")!;
    lingeringClose(socket, rawProblemResponse(refusal, requestIdFrom(nodeHeaders(req))));
  });
  server.on("checkExpectation", (req, res) => {
    const expected = JSON.stringify((req.headers.expect ?? "").slice(0, EXPECT_SHOWN));
    const refusal = problem("expectation-failed", { detail: `The request expects ${expected}; Gatehouse meets only "100-continue".` });
    const response = problemPlainResponse(refusal, { requestId: requestIdFrom(nodeHeaders(req)) });
    response.headers.connection = "close";
    writePlainResponse(response, res);
  });
}
