import { problem, type ProblemError } from "../../../http/problem";
import type { Stage } from "../../pipeline";
import { policiesFor } from "../policy-set";

/**
 * The WebSocket policy's check of a handshake, once its route is known and before its caller
 * is: 400 `websocket-not-enabled` where no WebSocket policy applies to the route.
 */
export const websocketRouteStage: Stage = ({ path, at }) => {
  const websocket = at.kind === "proxied" ? policiesFor(at.api.policies, "GET", at.route).websocket : undefined;
  if (websocket) return { websocket };
  return { refusal: websocketNotEnabled(path) };
};

/** The refusal of a handshake on a path whose route no WebSocket policy applies to. */
export function websocketNotEnabled(path: string): ProblemError {
  return problem("websocket-not-enabled", {
    detail: `${path} does not take WebSocket connections: no WebSocket policy applies to its route.`,
  });
}
