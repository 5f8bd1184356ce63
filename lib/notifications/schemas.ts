import { z } from "zod";

export const NOTIFICATION_CATEGORIES = ["system", "security", "billing", "release", "account"] as const;
export const NOTIFICATION_SEVERITIES = ["info", "warning", "critical"] as const;
export const NOTIFICATION_STATUSES = ["unread", "read", "archived"] as const;

export const notificationCategorySchema = z.enum(NOTIFICATION_CATEGORIES).meta({ description: "What the notification is about." });
export const notificationSeveritySchema = z.enum(NOTIFICATION_SEVERITIES).meta({ description: "How urgent it is." });
export const notificationStatusSchema = z
  .enum(NOTIFICATION_STATUSES)
  .meta({ description: "The client-writable state: `read` sets `readAt` once, `unread` clears it." });

export const notificationTitleSchema = z.string().min(1).max(200);
export const notificationBodySchema = z.string().max(4000);
export const notificationLinkSchema = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .nullable();

/** The ids this API issues; anything else cannot exist and is not sent to the database. */
export const notificationIdSchema = z
  .string()
  .max(68, { abort: true })
  .regex(/^ntf_[A-Za-z0-9_-]{1,64}$/)
  .meta({ description: "Opaque identifier, prefixed `ntf_`." });

/** `If-Match` and `If-None-Match`: a few entity tags of the form `"v12"` are all a client ever needs to send. */
export const entityTagListSchema = z.string().max(256);

const timestampSchema = z.iso.datetime({ offset: false, abort: true }).max(40).meta({ description: "ISO 8601 UTC time, e.g. 2022-12-05T09:30:00.000Z" });

export const NOTIFICATION_EXAMPLE = {
  id: "ntf_3kTMd9qXb2Lw7yZpQe1R",
  title: "Client secret expires in 7 days",
  body: "The client secret of Demo Application in sso-qa expires on 12 December 2022. Rotate it in Settings → Client Credentials.",
  category: "security",
  severity: "warning",
  status: "unread",
  link: "https://portal.example.com/settings/credentials",
  createdAt: "2022-12-05T09:30:00.000Z",
  updatedAt: "2022-12-05T09:30:00.000Z",
  readAt: null,
} as const;

/** The resource as the API returns it. */
export const notificationSchema = z
  .object({
    id: notificationIdSchema,
    title: notificationTitleSchema,
    body: notificationBodySchema,
    category: notificationCategorySchema,
    severity: notificationSeveritySchema,
    status: notificationStatusSchema,
    link: notificationLinkSchema.meta({ description: "Where to act on it, or null." }),
    createdAt: timestampSchema,
    updatedAt: timestampSchema,
    readAt: timestampSchema.nullable().meta({ description: "When it was first marked read; null unless read." }),
  })
  .meta({ description: "A message to one client application in one environment.", examples: [NOTIFICATION_EXAMPLE] });

export type NotificationResource = z.infer<typeof notificationSchema>;

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

const cursorSchema = z.string().min(1).max(512);

export const notificationListSchema = z
  .object({
    items: z.array(notificationSchema).max(MAX_PAGE_SIZE),
    nextCursor: cursorSchema.nullable().meta({ description: "Pass as `cursor` to get the next page; null on the last page." }),
  })
  .meta({ examples: [{ items: [NOTIFICATION_EXAMPLE], nextCursor: "eyJ0IjoxNjcwMjMyNjAwMDAwLCJpIjoibnRmXzNrVE1kOXFYYjJMdzd5WnBRZTFSIn0" }] });

const statusListSchema = z
  .string()
  .max(100, { abort: true })
  .regex(
    new RegExp(`^(${NOTIFICATION_STATUSES.join("|")})(,(${NOTIFICATION_STATUSES.join("|")}))*$`),
    `must be a comma-separated list of ${NOTIFICATION_STATUSES.join(", ")}`,
  )
  .transform((value) => [...new Set(value.split(","))] as (typeof NOTIFICATION_STATUSES)[number][])
  .meta({ description: "Comma-separated statuses to include, e.g. `unread,read`.", example: "unread,read" });

/** The query string of `GET /v1/notifications`; every value arrives as a string. */
export const listNotificationsQuerySchema = z.strictObject({
  status: statusListSchema.optional(),
  category: notificationCategorySchema.optional(),
  severity: notificationSeveritySchema.optional(),
  since: z.iso
    .datetime({ offset: true, abort: true })
    .max(40)
    .transform((value) => new Date(value))
    .meta({ description: "Only notifications created at or after this ISO 8601 time.", example: "2022-12-01T00:00:00Z" })
    .optional(),
  limit: z
    .string()
    .max(3, { abort: true, message: `must be an integer from 1 to ${MAX_PAGE_SIZE}` })
    .regex(/^\d{1,3}$/, `must be an integer from 1 to ${MAX_PAGE_SIZE}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `must be an integer from 1 to ${MAX_PAGE_SIZE}`).max(MAX_PAGE_SIZE, `must be an integer from 1 to ${MAX_PAGE_SIZE}`))
    .meta({ description: `Page size, 1 to ${MAX_PAGE_SIZE}; default ${DEFAULT_PAGE_SIZE}.`, example: "20" })
    .optional(),
  cursor: cursorSchema.meta({ description: "Opaque position returned as `nextCursor` by the previous page." }).optional(),
});

export type ListNotificationsQuery = z.output<typeof listNotificationsQuerySchema>;

/**
 * The body of `PUT /v1/notifications/{id}`: the client-writable `status`, plus
 * any read-only field of the resource, which must then equal the stored value
 * (so a client may send back what it fetched, with the status changed).
 */
export const updateNotificationBodySchema = z
  .strictObject({
    status: notificationStatusSchema,
    id: notificationIdSchema.optional(),
    title: notificationTitleSchema.optional(),
    body: notificationBodySchema.optional(),
    category: notificationCategorySchema.optional(),
    severity: notificationSeveritySchema.optional(),
    link: notificationLinkSchema.optional(),
    createdAt: timestampSchema.optional(),
    updatedAt: timestampSchema.optional(),
    readAt: timestampSchema.nullable().optional(),
  })
  .meta({
    description: "Only `status` is writable. Other fields of the resource may be sent back unchanged; any other field is rejected.",
    examples: [{ status: "read" }],
  });

export type UpdateNotificationBody = z.output<typeof updateNotificationBodySchema>;

export const READ_ONLY_FIELDS = ["id", "title", "body", "category", "severity", "link", "createdAt", "updatedAt", "readAt"] as const;

/** What an admin, the seed or the command line supplies to create notifications. */
export const createNotificationInputSchema = z.strictObject({
  title: notificationTitleSchema,
  body: notificationBodySchema.default(""),
  category: notificationCategorySchema.default("system"),
  severity: notificationSeveritySchema.default("info"),
  link: notificationLinkSchema.default(null),
});

export type CreateNotificationInput = z.input<typeof createNotificationInputSchema>;
