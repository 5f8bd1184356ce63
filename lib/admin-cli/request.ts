import { noPositionals, UsageError } from "./args";
import { type CommandGroup, command } from "./command";

const STATUSES = ["pending", "approved", "rejected"] as const;

const list = command(
  { usage: "request list [--status pending|approved|rejected]", summary: "Lists access requests, all or of one status, oldest first." },
  async (args) => {
    noPositionals(args);
    const status = args.flags.get("status")?.toLowerCase();
    if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) throw new UsageError(`--status must be one of ${STATUSES.join(", ")}`);
    const { db } = await import("../db");
    const requests = await db().accessRequest.findMany({
      where: status === undefined ? {} : { status: status.toUpperCase() as "PENDING" | "APPROVED" | "REJECTED" },
      include: { api: { select: { slug: true } }, environment: { select: { slug: true } } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    return {
      requests: requests.map((request) => ({
        id: request.id,
        status: request.status,
        topic: request.topic,
        email: request.email,
        env: request.environment?.slug ?? null,
        api: request.api?.slug ?? null,
        application: request.applicationName,
        createdAt: request.createdAt.toISOString(),
      })),
    };
  },
);

export const commands: CommandGroup = { list };
