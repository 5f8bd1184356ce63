import type { Db } from "../lib/db";
import { createNotifications } from "../lib/notifications/create-notifications";
import type { CreateNotificationInput } from "../lib/notifications/schemas";

type SampleNotification = CreateNotificationInput & { daysAgo: number; status: "unread" | "read" | "archived" };

const DOCS = "https://docs.example.com/gatehouse";

const SAMPLES: SampleNotification[] = [
  {
    daysAgo: 0.1,
    status: "unread",
    category: "security",
    severity: "warning",
    title: "Client secret expires in 7 days",
    body: "Rotate the client secret of this application before it expires to avoid failed token requests.",
    link: `${DOCS}/credentials#rotate`,
  },
  {
    daysAgo: 0.4,
    status: "unread",
    category: "system",
    severity: "critical",
    title: "Elevated error rate on the token endpoint",
    body: "Between 08:10 and 08:24 UTC about 3% of token requests failed with 503. The incident is resolved; retries succeed.",
    link: "https://status.example.com/incidents/tkn-0412",
  },
  {
    daysAgo: 0.9,
    status: "unread",
    category: "release",
    severity: "info",
    title: "Notifications API 1.0.0 is available",
    body: "List, fetch and update notifications through the gateway. See the changelog for details.",
    link: `${DOCS}/apis/notifications`,
  },
  {
    daysAgo: 1.3,
    status: "unread",
    category: "billing",
    severity: "info",
    title: "Your November usage report is ready",
    body: "1.2 million gateway calls this month, 14% more than October.",
    link: null,
  },
  {
    daysAgo: 2,
    status: "read",
    category: "account",
    severity: "info",
    title: "A new member joined your team",
    body: "dana@example.com now has developer access to this application.",
    link: null,
  },
  {
    daysAgo: 2.5,
    status: "unread",
    category: "security",
    severity: "critical",
    title: "Repeated failed token requests",
    body: "More than 50 token requests with a wrong secret arrived in one minute from 203.0.113.7. Check where this client's secret is stored.",
    link: `${DOCS}/security/leaked-secrets`,
  },
  {
    daysAgo: 3,
    status: "read",
    category: "system",
    severity: "warning",
    title: "Scheduled maintenance on 10 December",
    body: "The gateway will be read-only from 02:00 to 02:30 UTC while the database is upgraded.",
    link: "https://status.example.com/maintenance/2022-12-10",
  },
  {
    daysAgo: 3.7,
    status: "read",
    category: "release",
    severity: "info",
    title: "Rate limits raised in production",
    body: "Each client may now burst to 200 requests and sustain 50 requests per second.",
    link: `${DOCS}/rate-limits`,
  },
  {
    daysAgo: 4.2,
    status: "archived",
    category: "billing",
    severity: "warning",
    title: "Payment method expires soon",
    body: "The card ending in 4242 expires at the end of the month. Update it to keep your plan.",
    link: null,
  },
  {
    daysAgo: 5,
    status: "read",
    category: "account",
    severity: "info",
    title: "Access request approved",
    body: "Your request for the Notifications API was approved; the credential is ready in Settings.",
    link: `${DOCS}/credentials`,
  },
  {
    daysAgo: 6,
    status: "unread",
    category: "security",
    severity: "info",
    title: "Signing keys rotated",
    body: "A new key signs access tokens. The previous key stays in the JWKS until every token it signed has expired.",
    link: `${DOCS}/tokens#keys`,
  },
  {
    daysAgo: 7,
    status: "read",
    category: "system",
    severity: "info",
    title: "Gateway latency improved",
    body: "Median gateway overhead dropped from 4 ms to 1 ms after token verification caching shipped.",
    link: null,
  },
  {
    daysAgo: 8,
    status: "archived",
    category: "release",
    severity: "info",
    title: "Beta of usage charts",
    body: "Per-client usage charts are now visible to admins in the portal.",
    link: null,
  },
  {
    daysAgo: 9,
    status: "read",
    category: "billing",
    severity: "info",
    title: "Invoice INV-2022-1107 paid",
    body: "Thank you. The receipt is available in the billing section.",
    link: null,
  },
  {
    daysAgo: 10,
    status: "unread",
    category: "account",
    severity: "warning",
    title: "Application owner changing",
    body: "Ownership of this application moves to platform-team@example.com on 15 December unless you object.",
    link: null,
  },
  {
    daysAgo: 11,
    status: "read",
    category: "security",
    severity: "warning",
    title: "Deprecated TLS versions disabled",
    body: "Connections using TLS 1.0 and 1.1 are no longer accepted by the gateway.",
    link: `${DOCS}/security/tls`,
  },
  {
    daysAgo: 12.5,
    status: "archived",
    category: "system",
    severity: "critical",
    title: "Partial outage in the EU region",
    body: "Requests routed through eu-west failed for 12 minutes. Root cause: an expired internal certificate.",
    link: "https://status.example.com/incidents/gw-0388",
  },
  {
    daysAgo: 14,
    status: "read",
    category: "release",
    severity: "warning",
    title: "Version 0.9 of the Notifications API retires on 31 January",
    body: "Move to 1.0.0: the resource is unchanged, but unknown query parameters are now rejected with 400.",
    link: `${DOCS}/apis/notifications/migrate`,
  },
  {
    daysAgo: 16,
    status: "read",
    category: "account",
    severity: "info",
    title: "Contact details updated",
    body: "The technical contact of this application is now ops@example.com.",
    link: null,
  },
  {
    daysAgo: 18,
    status: "archived",
    category: "billing",
    severity: "info",
    title: "Plan changed to Team",
    body: "Your plan changed from Starter to Team. New limits apply immediately.",
    link: null,
  },
  {
    daysAgo: 20,
    status: "read",
    category: "security",
    severity: "info",
    title: "New client credential issued",
    body: "A credential was issued for this application. If you did not request it, revoke it in Settings.",
    link: `${DOCS}/credentials`,
  },
  {
    daysAgo: 23,
    status: "read",
    category: "system",
    severity: "info",
    title: "New status page",
    body: "Subscribe to incident updates for the environments you use.",
    link: "https://status.example.com",
  },
  {
    daysAgo: 26,
    status: "archived",
    category: "release",
    severity: "info",
    title: "OpenAPI documents for every API",
    body: "Download the OpenAPI 3.1 document of an API from its Reference tab, as JSON or YAML.",
    link: null,
  },
  {
    daysAgo: 29,
    status: "read",
    category: "account",
    severity: "info",
    title: "Welcome to Gatehouse",
    body: "Create a credential, request a token and make your first call from the API Reference.",
    link: `${DOCS}/getting-started`,
  },
  {
    daysAgo: 31,
    status: "archived",
    category: "billing",
    severity: "info",
    title: "October usage report",
    body: "1.05 million gateway calls; no overage charges.",
    link: null,
  },
  {
    daysAgo: 35,
    status: "read",
    category: "security",
    severity: "warning",
    title: "Token lifetime shortened",
    body: "Access tokens in production now expire after 1 hour instead of 24.",
    link: `${DOCS}/tokens#lifetime`,
  },
  {
    daysAgo: 40,
    status: "archived",
    category: "system",
    severity: "info",
    title: "Maintenance completed",
    body: "The database upgrade finished ahead of schedule.",
    link: null,
  },
  {
    daysAgo: 44,
    status: "read",
    category: "release",
    severity: "info",
    title: "Client credentials grant available",
    body: "Exchange a client id and secret for an access token at the token endpoint of each environment.",
    link: `${DOCS}/tokens`,
  },
  {
    daysAgo: 50,
    status: "archived",
    category: "account",
    severity: "info",
    title: "Application created",
    body: "Demo Application was registered. Add credentials per environment in Settings.",
    link: null,
  },
  {
    daysAgo: 58,
    status: "archived",
    category: "security",
    severity: "info",
    title: "Two-step sign-in recommended",
    body: "Link your Global SSO account to sign in to the portal with your organisation's policies.",
    link: null,
  },
];

/** A demo credential, as the seed creates them. */
export type DemoCredential = { envSlug: string; clientId: string };

/**
 * A few dozen realistic notifications for each demo credential, spread over the
 * past two months in every status. Idempotent: a client that already has
 * notifications gets none.
 */
export async function seedNotifications(db: Db, credentials: DemoCredential[], now = new Date()): Promise<void> {
  for (const { envSlug, clientId } of credentials) {
    const { id: environmentId } = await db.environment.findUniqueOrThrow({ where: { slug: envSlug }, select: { id: true } });
    if (await db.notification.findFirst({ where: { environmentId, clientId }, select: { id: true } })) continue;
    for (const { daysAgo, status, ...fields } of SAMPLES) {
      const createdAt = new Date(now.getTime() - Math.round(daysAgo * 86_400_000));
      const [id] = await createNotifications({ db, environmentId, recipients: { clientIds: [clientId] }, createdAt, ...fields });
      if (status !== "unread" && id) {
        await db.notification.update({ where: { id }, data: { status, readAt: status === "read" ? createdAt : null } });
      }
    }
  }
}
