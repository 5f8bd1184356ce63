import "server-only";
import { z } from "zod";
import type { PortalUser } from "../actors/portal-user";
import { clientAddress, retryAfter, sharedThrottle } from "../limiters/throttle";
import { type DbClient, inTransaction } from "../db";
import { problem, validationProblem, zodProblem } from "../http/problem";
import { newId } from "../ids";
import { recordAudit } from "../audit/write-audit";
import { recordEvent } from "../events/record-event";

export const contactSchema = z
  .strictObject({
    topic: z.enum(["CREDENTIALS", "API_ACCESS", "OTHER"], { message: "Choose a topic" }),
    api: z
      .string()
      .trim()
      .max(100)
      .optional()
      .transform((value) => value || undefined),
    environment: z
      .string()
      .trim()
      .max(100)
      .optional()
      .transform((value) => value || undefined),
    application: z
      .string()
      .trim()
      .max(100)
      .optional()
      .transform((value) => value || undefined),
    name: z.string().trim().min(1, "Enter your name").max(200),
    email: z.email("Enter an email address").max(320),
    message: z.string().trim().min(1, "Write a message").max(4000, "Keep the message under 4000 characters"),
  })
  .superRefine((input, ctx) => {
    if (input.topic === "OTHER") return;
    if (!input.environment) ctx.addIssue({ code: "custom", path: ["environment"], message: "Choose an environment" });
    if (!input.application) ctx.addIssue({ code: "custom", path: ["application"], message: "Name the application" });
    if (input.topic === "API_ACCESS" && !input.api) ctx.addIssue({ code: "custom", path: ["api"], message: "Choose an API" });
  });

export type ContactInput = z.infer<typeof contactSchema>;

const TEN_MINUTES = 10 * 60;
/** Each sender (a signed-in user, or an anonymous visitor's address) has a budget of its own, so none can use up another's. */
const submissionsPerSender = () => sharedThrottle("contact", TEN_MINUTES);
export const MAX_MESSAGES_PER_SENDER = 5;

/** Stores a Contact Us message; requests for credentials or access join the admins' queue. */
export async function submitContact({ db, input, requester, headers }: { db: DbClient; input: unknown; requester: PortalUser | null; headers: Headers }) {
  const key = requester ? `user:${requester.id}` : `address:${clientAddress(headers)}`;
  const wait = await retryAfter([{ throttle: submissionsPerSender(), key, limit: MAX_MESSAGES_PER_SENDER }]);
  if (wait > 0) {
    throw problem("too-many-requests", {
      detail: `Wait ${Math.ceil(wait / 60)} minutes before sending another message.`,
      headers: { "retry-after": String(wait) },
    });
  }
  const parsed = contactSchema.safeParse(input);
  if (!parsed.success) throw zodProblem(parsed.error, "body");
  const data = parsed.data;
  const environment = data.environment ? await db.environment.findUnique({ where: { slug: data.environment } }) : null;
  const api = data.api ? await db.api.findUnique({ where: { slug: data.api } }) : null;
  const errors = [
    ...(data.environment && !environment ? [{ in: "body" as const, field: "environment", message: "There is no such environment" }] : []),
    ...(data.api && !api ? [{ in: "body" as const, field: "api", message: "There is no such API" }] : []),
  ];
  if (errors.length > 0) throw validationProblem(errors);
  await submissionsPerSender().record(key);
  return inTransaction(db, async (tx) => {
    const request = await tx.accessRequest.create({
      data: {
        id: newId("req"),
        topic: data.topic,
        requesterId: requester?.id ?? null,
        name: data.name,
        email: requester?.email ?? data.email,
        apiId: api?.id ?? null,
        environmentId: environment?.id ?? null,
        credentialType: environment?.credentialType ?? null,
        applicationName: data.application ?? null,
        message: data.message,
      },
    });
    await recordAudit(
      tx,
      { userId: requester?.id, label: requester?.email ?? `visitor ${data.email}` },
      {
        action: "access-request.created",
        targetType: "access-request",
        targetId: request.id,
        details: { topic: data.topic, api: data.api ?? null, environment: data.environment ?? null },
      },
    );
    await recordEvent(tx, "access_request.submitted", accessRequestEvent(request, data));
    return { id: request.id, status: request.status };
  });
}

/** What every access request event says about the request. */
export function accessRequestEvent(
  request: { id: string; topic: string; name: string; email: string; requesterId: string | null },
  on: { api?: string | null; environment?: string | null },
) {
  const { id: requestId, topic, name, email, requesterId } = request;
  return { requestId, topic, name, email, requesterId, api: on.api ?? null, environment: on.environment ?? null };
}

/** What the Contact Us form offers to pick from. */
export async function contactChoices({ db }: { db: DbClient }) {
  const [apis, environments] = await Promise.all([
    db.api.findMany({ orderBy: { name: "asc" }, select: { slug: true, name: true } }),
    db.environment.findMany({ orderBy: { position: "asc" }, select: { slug: true, name: true } }),
  ]);
  return { apis, environments };
}
