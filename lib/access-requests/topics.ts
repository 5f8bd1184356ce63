import type { AccessRequestTopic } from "../db";

/** How the portal names each kind of request, in the admin queue and in the requester's list. */
export const TOPIC_LABELS: Record<AccessRequestTopic, string> = {
  CREDENTIALS: "Credentials",
  API_ACCESS: "API access",
  OTHER: "Other",
  ACCOUNT: "New account",
};
