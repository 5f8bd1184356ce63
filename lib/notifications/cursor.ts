import type { NotificationCursor } from "../data-plane/notifications";
import { validationProblem } from "../http/problem";
import { isNotificationId } from "./not-found";

export function encodeCursor(cursor: NotificationCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.getTime(), cursor.id])).toString("base64url");
}

/** Anything that is not a cursor we issued is a 400 naming `cursor`, never a 500. */
export function decodeCursor(value: string): NotificationCursor {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    decoded = undefined;
  }
  if (Array.isArray(decoded) && decoded.length === 2 && Number.isSafeInteger(decoded[0]) && typeof decoded[1] === "string" && isNotificationId(decoded[1])) {
    const createdAt = new Date(decoded[0] as number);
    if (!Number.isNaN(createdAt.getTime())) return { createdAt, id: decoded[1] };
  }
  throw validationProblem([{ in: "query", field: "cursor", message: "is not a cursor returned by this API" }]);
}
