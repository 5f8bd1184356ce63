import "server-only";
import { z } from "zod";
import type { DbClient } from "../db";
import { unsealInvitationToken } from "./invitation-token";
import { activeAdmins, activeUser, apiConsumers, applicationOwner, type Recipient } from "./recipients";

/**
 * What an event says to a person: a subject, a few plain paragraphs and the portal page it
 * concerns. lib/events/email-message.ts renders it as text and as escaped HTML.
 */
export type EventMessage = { subject: string; paragraphs: string[]; link: { path: string; label: string } };

type EventDefinition<Schema extends z.ZodType> = {
  /** shown on the preferences page */
  description: string;
  payload: Schema;
  /** who receives it, read in the transaction that records it */
  recipients(db: DbClient, payload: z.output<Schema>): Promise<Recipient[]>;
  /** false for events a person cannot do without, such as an invitation addressed to them */
  mutable: boolean;
  /** only administrators receive it, so only they see it among their preferences */
  adminsOnly?: boolean;
  message(payload: z.output<Schema>): EventMessage;
  /** the user and client the event is about, stored beside the payload for lookups */
  subject(payload: z.output<Schema>): { userId: string | null; clientId: string | null };
};

const define = <Schema extends z.ZodType>(definition: EventDefinition<Schema>) => definition;

const credential = z.object({
  clientId: z.string(),
  application: z.string(),
  environment: z.string(),
  ownerId: z.string().nullable(),
});
const credentialSubject = (payload: z.output<typeof credential>) => ({ userId: payload.ownerId, clientId: payload.clientId });
const toOwner = (db: DbClient, payload: z.output<typeof credential>) => applicationOwner(db, payload);
const CREDENTIALS_PAGE = { path: "/settings/credentials", label: "Open Client Credentials" };

const accessRequest = z.object({
  requestId: z.string(),
  topic: z.string(),
  name: z.string(),
  email: z.string(),
  requesterId: z.string().nullable(),
  api: z.string().nullable(),
  environment: z.string().nullable(),
});
const account = z.object({ userId: z.string(), email: z.string(), name: z.string() });
const onWhat = (payload: { api: string | null; environment: string | null }) =>
  [payload.api && `API ${payload.api}`, payload.environment && `environment ${payload.environment}`].filter(Boolean).join(", ") || "no API";

/** Every event type, by the name it has on the wire. */
export const EVENT_TYPES = {
  "credential.created": define({
    description: "A credential was created for one of your applications",
    payload: credential,
    recipients: toOwner,
    mutable: true,
    subject: credentialSubject,
    message: (p) => ({
      subject: `Credential ${p.clientId} created for ${p.application}`,
      paragraphs: [`The credential ${p.clientId} of ${p.application} was created in ${p.environment}.`],
      link: CREDENTIALS_PAGE,
    }),
  }),
  "credential.rotated": define({
    description: "A client secret of yours was rotated",
    payload: credential.extend({ hint: z.string(), previousSecretValidUntil: z.iso.datetime().nullable() }),
    recipients: toOwner,
    mutable: true,
    subject: credentialSubject,
    message: (p) => ({
      subject: `Secret of ${p.clientId} rotated`,
      paragraphs: [
        `The credential ${p.clientId} of ${p.application} in ${p.environment} has a new secret, ending in ${p.hint}.`,
        p.previousSecretValidUntil ? `The previous secret keeps working until ${p.previousSecretValidUntil}.` : "The previous secret no longer works.",
      ],
      link: CREDENTIALS_PAGE,
    }),
  }),
  "credential.revoked": define({
    description: "A credential of yours was revoked",
    payload: credential,
    recipients: toOwner,
    mutable: true,
    subject: credentialSubject,
    message: (p) => ({
      subject: `Credential ${p.clientId} revoked`,
      paragraphs: [`The credential ${p.clientId} of ${p.application} in ${p.environment} was revoked; its tokens and secrets no longer work.`],
      link: CREDENTIALS_PAGE,
    }),
  }),
  "credential.secret_expiring": define({
    description: "A client secret of yours expires within a week",
    payload: credential.extend({ hint: z.string(), expiresAt: z.iso.datetime() }),
    recipients: toOwner,
    mutable: true,
    subject: credentialSubject,
    message: (p) => ({
      subject: `Secret of ${p.clientId} expires ${p.expiresAt.slice(0, 10)}`,
      paragraphs: [
        `The secret ending in ${p.hint} of ${p.clientId} (${p.application}, ${p.environment}) stops working at ${p.expiresAt}.`,
        "Rotate it and deploy the new secret before then.",
      ],
      link: CREDENTIALS_PAGE,
    }),
  }),
  "api_key.expiring": define({
    description: "An API key of yours expires within a week",
    payload: credential.extend({ keyId: z.string(), hint: z.string(), expiresAt: z.iso.datetime() }),
    recipients: toOwner,
    mutable: true,
    subject: credentialSubject,
    message: (p) => ({
      subject: `API key ending in ${p.hint} expires ${p.expiresAt.slice(0, 10)}`,
      paragraphs: [
        `The API key ending in ${p.hint} of ${p.application} in ${p.environment} stops working at ${p.expiresAt}.`,
        "Roll it or create a new key, and deploy the new key before then.",
      ],
      link: { path: "/settings/api-keys", label: "Open API keys" },
    }),
  }),
  "api_key.leaked": define({
    description: "An API key of yours was found in public and revoked",
    payload: credential.extend({ keyId: z.string(), hint: z.string(), url: z.string().nullable(), source: z.string().nullable() }),
    recipients: toOwner,
    mutable: false,
    subject: credentialSubject,
    message: (p) => ({
      subject: `API key ending in ${p.hint} leaked and revoked`,
      paragraphs: [
        `The API key ending in ${p.hint} of ${p.application} in ${p.environment} was reported by GitHub secret scanning${p.source ? ` (${p.source})` : ""} and has been revoked.`,
        p.url ? `Where it was found: ${p.url}` : "GitHub did not say where it was found.",
        "Create a new key, deploy it, and remove the old one from where it was published.",
      ],
      link: { path: "/settings/api-keys", label: "Open API keys" },
    }),
  }),
  "access_request.submitted": define({
    description: "Someone sent an access request",
    adminsOnly: true,
    payload: accessRequest,
    recipients: (db) => activeAdmins(db),
    mutable: true,
    subject: (p) => ({ userId: p.requesterId, clientId: null }),
    message: (p) => ({
      subject: `Access request from ${p.name}`,
      paragraphs: [`${p.name} <${p.email}> sent a ${p.topic} request (${onWhat(p)}).`],
      link: { path: "/admin/requests", label: "Open the request queue" },
    }),
  }),
  "access_request.decided": define({
    description: "An access request of yours was approved or rejected",
    payload: accessRequest.extend({ decision: z.enum(["approved", "rejected"]), reason: z.string().nullable(), clientId: z.string().nullable() }),
    // A request sent without an account (or from one since disabled) is answered at the address it gave.
    recipients: async (db, p) => {
      const requester = await activeUser(db, p.requesterId);
      return requester.length > 0 ? requester : [{ userId: null, email: p.email }];
    },
    mutable: true,
    subject: (p) => ({ userId: p.requesterId, clientId: p.clientId }),
    message: (p) => ({
      subject: `Your access request was ${p.decision}`,
      paragraphs: [
        `Your ${p.topic} request (${onWhat(p)}) was ${p.decision}.`,
        ...(p.reason ? [`Reason: ${p.reason}`] : []),
        ...(p.clientId ? [`The credential ${p.clientId} is ready; generate its first secret under Client Credentials.`] : []),
      ],
      link: { path: "/settings/requests", label: "Open your requests" },
    }),
  }),
  "signup.pending": define({
    description: "A sign-up waits for approval",
    adminsOnly: true,
    payload: account,
    recipients: (db) => activeAdmins(db),
    mutable: true,
    subject: (p) => ({ userId: p.userId, clientId: null }),
    message: (p) => ({
      subject: `Sign-up waiting: ${p.email}`,
      paragraphs: [`${p.name} <${p.email}> signed up and waits for approval.`],
      link: { path: "/admin/requests", label: "Open the request queue" },
    }),
  }),
  "signup.approved": define({
    description: "Your sign-up was approved",
    payload: account,
    recipients: (db, p) => activeUser(db, p.userId),
    mutable: false,
    subject: (p) => ({ userId: p.userId, clientId: null }),
    message: (p) => ({
      subject: "Your account was approved",
      paragraphs: [`Your developer account ${p.email} was approved; you can sign in.`],
      link: { path: "/login", label: "Sign in" },
    }),
  }),
  "team.invitation": define({
    description: "You were invited to a team",
    payload: z.object({
      invitationId: z.string(),
      teamId: z.string(),
      team: z.string(),
      email: z.string(),
      invitedBy: z.string(),
      expiresAt: z.iso.datetime(),
      /** the link's token, encrypted (lib/events/invitation-token.ts); never sent in a webhook */
      sealedToken: z.string(),
    }),
    recipients: async (_db, p) => [{ userId: null, email: p.email }],
    mutable: false,
    subject: () => ({ userId: null, clientId: null }),
    message: (p) => ({
      subject: `Invitation to the team ${p.team}`,
      paragraphs: [`${p.invitedBy} invited you to the team ${p.team}.`, `The invitation is valid until ${p.expiresAt}.`],
      link: { path: `/teams/invitations/${unsealInvitationToken(p.sealedToken)}`, label: "Open the invitation" },
    }),
  }),
  "quota.threshold": define({
    description: "A subscription of your application used 80 % or all of its plan's quota",
    payload: z.object({
      subscriptionId: z.string(),
      clientId: z.string(),
      application: z.string(),
      environment: z.string(),
      api: z.string(),
      plan: z.string(),
      /** 80 or 100: the share of the quota used */
      threshold: z.union([z.literal(80), z.literal(100)]),
      used: z.number().int(),
      quota: z.number().int(),
      period: z.enum(["hour", "day", "month"]),
      periodStart: z.iso.datetime(),
      periodEnd: z.iso.datetime(),
      ownerId: z.string().nullable(),
    }),
    recipients: (db, p) => applicationOwner(db, p),
    mutable: true,
    subject: (p) => ({ userId: p.ownerId, clientId: p.clientId }),
    message: (p) => ({
      subject: `${p.application} used ${p.threshold} % of its ${p.plan} quota for ${p.api}`,
      paragraphs: [
        `${p.application} made ${p.used} of the ${p.quota} calls its plan "${p.plan}" allows per ${p.period} to ${p.api} in ${p.environment}.`,
        p.threshold === 100
          ? `Further calls are refused (429 quota-exceeded) until ${p.periodEnd}; a plan with a larger quota lifts the limit.`
          : `At ${p.quota} calls, further calls are refused until ${p.periodEnd}.`,
      ],
      link: { path: "/settings/usage", label: "Open Usage" },
    }),
  }),
  "api.deprecated": define({
    description: "An API your credentials use was deprecated",
    payload: z.object({
      api: z.string(),
      apiName: z.string(),
      version: z.string().nullable(),
      /** `GET /v1/orders/{id}` when one operation is deprecated, null for the whole version */
      operation: z.string().nullable().default(null),
      sunsetAt: z.iso.datetime().nullable(),
    }),
    recipients: (db, p) => apiConsumers(db, p.api),
    mutable: true,
    subject: () => ({ userId: null, clientId: null }),
    message: (p) => ({
      subject: `${p.apiName}${p.version ? ` ${p.version}` : ""}${p.operation ? `: ${p.operation}` : ""} is deprecated`,
      paragraphs: [
        p.operation
          ? `${p.operation} of ${p.apiName}${p.version ? ` ${p.version}` : ""}, which a credential of yours is granted, is deprecated.`
          : `${p.apiName}${p.version ? ` version ${p.version}` : ""}, which a credential of yours is granted, is deprecated.`,
        p.sunsetAt ? `It stops answering at ${p.sunsetAt}.` : "No end date is set yet.",
      ],
      link: { path: `/apis/${encodeURIComponent(p.api)}${p.version ? `?version=${encodeURIComponent(p.version)}` : ""}`, label: `Open ${p.apiName}` },
    }),
  }),
} as const;

export type EventType = keyof typeof EVENT_TYPES;
export type EventPayload<Type extends EventType> = z.input<(typeof EVENT_TYPES)[Type]["payload"]>;

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

export function isEventType(name: string): name is EventType {
  return Object.hasOwn(EVENT_TYPES, name);
}

/** A type's definition with its payload type erased, for code that handles every type alike. */
export function definitionOf(type: string): EventDefinition<z.ZodType> {
  if (!isEventType(type)) throw new Error(`unknown event type ${type}`);
  return EVENT_TYPES[type] as unknown as EventDefinition<z.ZodType>;
}

/** The message for a stored event; the payload is parsed again, so a row written by other code cannot render wrongly. */
export function eventMessage(type: string, payload: unknown): EventMessage {
  const definition = definitionOf(type);
  return definition.message(definition.payload.parse(payload));
}
