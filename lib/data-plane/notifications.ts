import "server-only";
import type { NotificationCategory, NotificationSeverity, NotificationStatus } from "../generated/prisma/sqlite/enums";

/** The client application, in one environment, that notifications belong to. */
export type NotificationOwner = { environmentId: string; clientId: string };

/**
 * A notification as the store reads it: the resource's fields, times already as the
 * API shows them (ISO 8601 in UTC), and the version its ETag names.
 */
export type StoredNotification = {
  id: string;
  title: string;
  body: string;
  category: NotificationCategory;
  severity: NotificationSeverity;
  status: NotificationStatus;
  link: string | null;
  createdAt: string;
  updatedAt: string;
  readAt: string | null;
  version: number;
};

/** A position in the newest-first order: the last item a page returned. */
export type NotificationCursor = { createdAt: Date; id: string };

/** What a page of `GET /v1/notifications` asks for, already validated. */
export type NotificationFilter = {
  status?: readonly string[];
  category?: string;
  severity?: string;
  since?: Date;
  cursor?: NotificationCursor;
  /** rows to read: the page size plus one, to tell whether there is a next page */
  limit: number;
};

export type StatusChange = { status: StoredNotification["status"]; readAt: Date | null; updatedAt: Date };

/**
 * The Notifications API's queries, through the database driver with statements
 * prepared once (docs/decisions/007-gateway-notification-queries.md): Prisma's
 * client runtime and adapters cost more than the queries themselves. Prisma keeps
 * the schema, the migrations and every other query.
 */
export type NotificationStore = {
  findOne(owner: NotificationOwner, id: string): Promise<StoredNotification | undefined>;
  findPage(owner: NotificationOwner, filter: NotificationFilter): Promise<StoredNotification[]>;
  /**
   * `findPage`'s rows with `countChanges`' count, the count never newer than the rows: on
   * PostgreSQL one statement, so one snapshot and one round trip; on SQLite the count
   * first. `changes` is undefined when PostgreSQL found no rows, which carry it.
   */
  findPageWithChanges(owner: NotificationOwner, filter: NotificationFilter): Promise<{ rows: StoredNotification[]; changes: number | undefined }>;
  /** The id and version of each row `findPage` would read, from the index alone. */
  findPageVersions(owner: NotificationOwner, filter: NotificationFilter): Promise<[id: string, version: number][]>;
  /**
   * How many times the owner's notifications have been inserted, changed or deleted
   * (`NotificationChanges`, kept by triggers in the same transaction as the change); 0 before the first.
   */
  countChanges(owner: NotificationOwner): Promise<number>;
  /** Applies `change` when the row still has `version`, bumping it; false when it had changed meanwhile. */
  setStatus(owner: NotificationOwner, id: string, version: number, change: StatusChange): Promise<boolean>;
  /**
   * Sets `status` unless it is the stored one, bumping the version, with `readAt` set
   * to `at` on the first read, cleared on unread, and kept on archive: one statement,
   * the row as updated, or undefined when there is no such row or its status is `status`.
   */
  changeStatus(owner: NotificationOwner, id: string, status: StoredNotification["status"], at: Date): Promise<StoredNotification | undefined>;
};
