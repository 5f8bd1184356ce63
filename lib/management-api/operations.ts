import "server-only";
import { approveAccessRequest, rejectAccessRequest } from "../access-requests/decide-access-request";
import { accessRequestQueue } from "../access-requests/list-access-requests";
import { rotateSecret } from "../credentials/credentials";
import {
  credentialDpopSchema,
  myApplications,
  ownCredentialOrThrow,
  revokeMyCredential,
  setMyCredentialDpop,
  trustMyIssuer,
} from "../credentials/my-credentials";
import { createNewCredential } from "../credentials/new-credential";
import { newCredentialSchema } from "../credentials/new-credential-schema";
import { listEnvironments } from "../environments/environments";
import { myClients } from "../usage/my-usage";
import { usageReport } from "../usage/usage-report";
import { ADMIN_OPERATIONS } from "./admin-operations";
import { KEY_OPERATIONS } from "./key-operations";
import { SUBSCRIPTION_OPERATIONS } from "./subscription-operations";
import { TEAM_OPERATIONS } from "./team-operations";
import { ANSWER_HEADERS, CLIENT_ID, INVALID, jsonAnswer, jsonBody, NO_TEAM, NOT_FOUND, ok, operation, parse, REQUEST_ID } from "./operation-kit";
import { replayWebhookDelivery, webhookDeliveries } from "../webhooks/deliveries";
import { createWebhookEndpoint, createWebhookSchema, deleteWebhookEndpoint, listWebhookEndpoints, rotateWebhookSecret } from "../webhooks/endpoints";
import {
  accessRequestListSchema,
  accessRequestStatusQuerySchema,
  applicationListSchema,
  createdCredentialSchema,
  credentialListSchema,
  credentialSchema,
  environmentListSchema,
  rejectAccessRequestBodySchema,
  rotatedSecretSchema,
  rotateSecretBodySchema,
  trustBodySchema,
  usageQuerySchema,
  usageReportSchema,
} from "./schemas";
import {
  deletedWebhookSchema,
  replayedDeliverySchema,
  teamQuerySchema,
  webhookDeliveryListSchema,
  webhookEndpointListSchema,
  webhookWithSecretSchema,
} from "./webhook-schemas";

const TEAM_ROLE = {
  code: "team-role-required",
  description: "Your role in the application's team is below admin.",
  detail: "This needs the admin role in the team; yours is member.",
} as const;

const WEBHOOK_ID = { name: "id", in: "path", required: true, description: "The webhook endpoint's id.", schema: { type: "string", maxLength: 100 } };
const DELIVERY_ID = { name: "deliveryId", in: "path", required: true, description: "The delivery's id.", schema: { type: "string", maxLength: 100 } };
const NO_WEBHOOK = {
  code: "not-found",
  description: "No endpoint of a team of yours has this id (or no such delivery of it).",
  detail: "No webhook endpoint whe_….",
} as const;

/** The management API, declared once: the route table of /api/v1 and its OpenAPI document are built from this list. */
export const MANAGEMENT_OPERATIONS = [
  operation({
    id: "listApplications",
    method: "GET",
    path: "/applications",
    scope: "credentials:read",
    tags: ["Credentials"],
    summary: "List your applications with their credentials",
    responses: () => ({ "200": jsonAnswer("Your applications, each with its credentials.", applicationListSchema) }),
    handle: async ({ db, caller }) => ok({ applications: await myApplications({ db, user: caller.user }) }),
  }),
  operation({
    id: "listCredentials",
    method: "GET",
    path: "/credentials",
    scope: "credentials:read",
    tags: ["Credentials"],
    summary: "List your credentials",
    responses: () => ({ "200": jsonAnswer("Your credentials, oldest first.", credentialListSchema) }),
    handle: async ({ db, caller }) => {
      const applications = await myApplications({ db, user: caller.user });
      return ok({ credentials: applications.flatMap((application) => application.credentials) });
    },
  }),
  operation({
    id: "createCredential",
    method: "POST",
    path: "/credentials",
    scope: "credentials:write",
    tags: ["Credentials"],
    summary: "Create a credential",
    description:
      "Creates the application in the team given (where you need the admin role), or in your personal team, when it has none of that name. The answer holds the client secret, shown once.",
    requestBody: jsonBody(newCredentialSchema),
    responses: () => ({ "201": jsonAnswer("The credential and its first secret.", createdCredentialSchema) }),
    problems: [{ ...INVALID, description: "The body is not valid, or you are in no team of the id given as `team`." }, TEAM_ROLE],
    handle: async ({ db, caller, body }) => ok(await createNewCredential({ db, input: body, by: { user: caller.user, actor: caller.actor } }), 201),
  }),
  operation({
    id: "rotateCredentialSecret",
    method: "POST",
    path: "/credentials/{clientId}/secrets",
    scope: "credentials:write",
    tags: ["Credentials"],
    summary: "Rotate the secret, with an overlap",
    description: "Answers the new secret once; the previous one keeps working for `overlapSeconds`, and any older one ends now.",
    pathParameters: [CLIENT_ID],
    requestBody: jsonBody(rotateSecretBodySchema),
    responses: () => ({ "201": jsonAnswer("The new secret.", rotatedSecretSchema) }),
    problems: [INVALID, NOT_FOUND, TEAM_ROLE],
    handle: async ({ db, caller, params, body }) => {
      const { overlapSeconds } = parse(rotateSecretBodySchema, body, "body");
      const clientId = params.clientId ?? "";
      await ownCredentialOrThrow({ db, user: caller.user, clientId, needed: "admin" });
      return ok(await rotateSecret({ db, actor: caller.actor, clientId, graceSeconds: overlapSeconds }), 201);
    },
  }),
  operation({
    id: "trustCredentialIssuer",
    method: "PUT",
    path: "/credentials/{clientId}/trust",
    scope: "credentials:write",
    tags: ["Credentials"],
    summary: "Trust an external OIDC issuer",
    description:
      "Workload identity federation: the client then authenticates with that issuer's ID tokens for `audience` whose `sub` matches `subject`, and with nothing else; the credential's secrets end at once. The issuer must be an https URL on a public address (unless the server sets OUTBOUND_ALLOW_PRIVATE=1).",
    pathParameters: [CLIENT_ID],
    requestBody: jsonBody(trustBodySchema),
    responses: () => ({ "200": jsonAnswer("The credential, trusting the issuer.", credentialSchema) }),
    problems: [INVALID, NOT_FOUND, TEAM_ROLE],
    handle: async ({ db, caller, params, body }) =>
      ok(await trustMyIssuer({ db, user: caller.user, clientId: params.clientId ?? "", input: parse(trustBodySchema, body, "body"), actor: caller.actor })),
  }),
  operation({
    id: "setCredentialDpop",
    method: "PUT",
    path: "/credentials/{clientId}/dpop",
    scope: "credentials:write",
    tags: ["Credentials"],
    summary: "Require DPoP, or stop requiring it",
    description:
      "With `requireDpop: true` the token endpoint gives the credential tokens only with a DPoP proof (RFC 9449), bound to its key. Its environment may require DPoP anyway; tokens issued before keep working until they expire.",
    pathParameters: [CLIENT_ID],
    requestBody: jsonBody(credentialDpopSchema),
    responses: () => ({ "200": jsonAnswer("The credential.", credentialSchema) }),
    problems: [INVALID, NOT_FOUND, TEAM_ROLE],
    handle: async ({ db, caller, params, body }) =>
      ok(
        await setMyCredentialDpop({
          db,
          user: caller.user,
          clientId: params.clientId ?? "",
          input: parse(credentialDpopSchema, body, "body"),
          actor: caller.actor,
        }),
      ),
  }),
  operation({
    id: "revokeCredential",
    method: "DELETE",
    path: "/credentials/{clientId}",
    scope: "credentials:write",
    tags: ["Credentials"],
    summary: "Revoke a credential",
    description: "Its secrets stop working at once and the gateway refuses its tokens within seconds.",
    pathParameters: [CLIENT_ID],
    responses: () => ({ "200": jsonAnswer("The revoked credential.", credentialSchema) }),
    problems: [NOT_FOUND, TEAM_ROLE],
    handle: async ({ db, caller, params }) => ok(await revokeMyCredential({ db, user: caller.user, clientId: params.clientId ?? "", actor: caller.actor })),
  }),
  operation({
    id: "getUsage",
    method: "GET",
    path: "/usage",
    scope: "usage:read",
    tags: ["Usage"],
    summary: "Read the usage of your credentials",
    query: usageQuerySchema,
    responses: () => ({ "200": jsonAnswer("The usage report.", usageReportSchema) }),
    problems: [INVALID],
    handle: async ({ db, caller, query }) => {
      const { range } = parse(usageQuerySchema, query, "query");
      const clients = await myClients(db, caller.user);
      return ok(await usageReport(db, { clients: clients.map((client) => client.clientId) }, range));
    },
  }),
  operation({
    id: "listEnvironments",
    method: "GET",
    path: "/admin/environments",
    scope: "admin:read",
    tags: ["Administration"],
    summary: "List environments",
    responses: () => ({ "200": jsonAnswer("Every environment.", environmentListSchema) }),
    handle: async ({ db }) => ok({ environments: await listEnvironments({ db }) }),
  }),
  operation({
    id: "listAccessRequests",
    method: "GET",
    path: "/admin/access-requests",
    scope: "admin:read",
    tags: ["Administration"],
    summary: "List access requests of one status",
    query: accessRequestStatusQuerySchema,
    responses: () => ({ "200": jsonAnswer("The requests, pending ones oldest first.", accessRequestListSchema) }),
    problems: [INVALID],
    handle: async ({ db, query }) => {
      const { status } = parse(accessRequestStatusQuerySchema, query, "query");
      return ok({ requests: await accessRequestQueue({ db, status }) });
    },
  }),
  operation({
    id: "approveAccessRequest",
    method: "POST",
    path: "/admin/access-requests/{id}/approve",
    scope: "admin:write",
    tags: ["Administration"],
    summary: "Approve an access request",
    pathParameters: [REQUEST_ID],
    responses: () => ({ "200": { description: "The request is approved and what it asked for is provisioned.", headers: ANSWER_HEADERS } }),
    problems: [{ code: "already-decided", description: "Another administrator decided it first.", detail: "The request was decided already." }],
    handle: async ({ db, caller, params }) => ok(await approveAccessRequest({ db, admin: caller.user, id: params.id ?? "", actor: caller.actor })),
  }),
  operation({
    id: "rejectAccessRequest",
    method: "POST",
    path: "/admin/access-requests/{id}/reject",
    scope: "admin:write",
    tags: ["Administration"],
    summary: "Reject an access request",
    pathParameters: [REQUEST_ID],
    requestBody: jsonBody(rejectAccessRequestBodySchema),
    responses: () => ({ "200": { description: "The request is rejected.", headers: ANSWER_HEADERS } }),
    problems: [INVALID, { code: "already-decided", description: "Another administrator decided it first.", detail: "The request was decided already." }],
    handle: async ({ db, caller, params, body }) =>
      ok(await rejectAccessRequest({ db, admin: caller.user, id: params.id ?? "", input: body, actor: caller.actor })),
  }),
  operation({
    id: "listWebhooks",
    method: "GET",
    path: "/webhooks",
    scope: "webhooks:read",
    tags: ["Webhooks"],
    summary: "List a team's webhook endpoints",
    query: teamQuerySchema,
    responses: () => ({ "200": jsonAnswer("The team's endpoints, oldest first; never their secrets.", webhookEndpointListSchema) }),
    problems: [INVALID, NO_TEAM],
    handle: async ({ db, caller, query }) => {
      const { team } = parse(teamQuerySchema, query, "query");
      return ok({ endpoints: await listWebhookEndpoints({ db, actor: caller.actor, teamId: team }) });
    },
  }),
  operation({
    id: "createWebhook",
    method: "POST",
    path: "/webhooks",
    scope: "webhooks:write",
    tags: ["Webhooks"],
    summary: "Register a webhook endpoint",
    description: "Needs the admin role in the team. The URL must pass the outbound policy. The answer holds the signing secret, shown once.",
    requestBody: jsonBody(createWebhookSchema),
    responses: () => ({ "201": jsonAnswer("The endpoint and its signing secret.", webhookWithSecretSchema) }),
    problems: [INVALID, NO_TEAM, TEAM_ROLE],
    handle: async ({ db, caller, body }) => ok(await createWebhookEndpoint({ db, actor: caller.actor, input: body }), 201),
  }),
  operation({
    id: "rotateWebhookSecret",
    method: "POST",
    path: "/webhooks/{id}/secrets",
    scope: "webhooks:write",
    tags: ["Webhooks"],
    summary: "Rotate an endpoint's signing secret",
    description: "Answers the new secret once; for 24 hours the previous one signs each delivery too.",
    pathParameters: [WEBHOOK_ID],
    responses: () => ({ "201": jsonAnswer("The endpoint and its new signing secret.", webhookWithSecretSchema) }),
    problems: [NO_WEBHOOK, TEAM_ROLE],
    handle: async ({ db, caller, params }) => ok(await rotateWebhookSecret({ db, actor: caller.actor, endpointId: params.id ?? "" }), 201),
  }),
  operation({
    id: "deleteWebhook",
    method: "DELETE",
    path: "/webhooks/{id}",
    scope: "webhooks:write",
    tags: ["Webhooks"],
    summary: "Delete a webhook endpoint",
    description: "Its pending deliveries fail; nothing more is sent to it.",
    pathParameters: [WEBHOOK_ID],
    responses: () => ({ "200": jsonAnswer("The endpoint is deleted.", deletedWebhookSchema) }),
    problems: [NO_WEBHOOK, TEAM_ROLE],
    handle: async ({ db, caller, params }) => {
      await deleteWebhookEndpoint({ db, actor: caller.actor, endpointId: params.id ?? "" });
      return ok({ deleted: params.id });
    },
  }),
  operation({
    id: "listWebhookDeliveries",
    method: "GET",
    path: "/webhooks/{id}/deliveries",
    scope: "webhooks:read",
    tags: ["Webhooks"],
    summary: "Read an endpoint's delivery log",
    pathParameters: [WEBHOOK_ID],
    responses: () => ({ "200": jsonAnswer("The last 50 deliveries, newest first, each with its attempts.", webhookDeliveryListSchema) }),
    problems: [NO_WEBHOOK],
    handle: async ({ db, caller, params }) => ok({ deliveries: await webhookDeliveries({ db, actor: caller.actor, endpointId: params.id ?? "" }) }),
  }),
  operation({
    id: "replayWebhookDelivery",
    method: "POST",
    path: "/webhooks/{id}/deliveries/{deliveryId}/replay",
    scope: "webhooks:write",
    tags: ["Webhooks"],
    summary: "Send a delivery's event to the endpoint again",
    pathParameters: [WEBHOOK_ID, DELIVERY_ID],
    responses: () => ({ "202": jsonAnswer("A new delivery of the same event, pending.", replayedDeliverySchema) }),
    problems: [
      NO_WEBHOOK,
      TEAM_ROLE,
      { code: "webhook-disabled", description: "The endpoint is disabled.", detail: "The webhook endpoint whe_… is disabled." },
    ],
    handle: async ({ db, caller, params }) =>
      ok({ delivery: await replayWebhookDelivery({ db, actor: caller.actor, endpointId: params.id ?? "", deliveryId: params.deliveryId ?? "" }) }, 202),
  }),
  ...KEY_OPERATIONS,
  ...SUBSCRIPTION_OPERATIONS,
  ...TEAM_OPERATIONS,
  ...ADMIN_OPERATIONS,
];
