import "server-only";
import { z } from "zod";
import { createApiKey, listApiKeys, newApiKeySchema, revokeApiKey, rollApiKey, rollApiKeySchema } from "../credentials/api-keys";
import { INVALID, jsonAnswer, jsonBody, ok, operation, parse } from "./operation-kit";

// `/api/v1/keys`: the API keys of the applications of the caller's teams, as `key create|roll|revoke|list` manage them all.

const apiKeySchema = z.object({
  id: z.string().max(100),
  hint: z.string().max(4).meta({ description: "The key's last four characters." }),
  application: z.string().max(200),
  environment: z.string().max(100),
  clientId: z.string().max(100),
  state: z.enum(["active", "expired", "revoked"]),
  createdAt: z.date(),
  expiresAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
  lastUsedAt: z.date().nullable(),
});
const keyListSchema = z.object({ keys: z.array(apiKeySchema).max(100_000) });
const issuedKeySchema = z.object({ key: z.string().max(41).meta({ description: "The key, `gk_…`, shown this once." }), apiKey: apiKeySchema });
const rolledKeySchema = issuedKeySchema.extend({ previous: apiKeySchema });
const keyQuerySchema = z.strictObject({ environment: z.string().max(100).optional(), application: z.string().max(100).optional() });
const revokeQuerySchema = z.strictObject({
  last: z.enum(["true", "false"]).optional().meta({ description: "`true` to revoke the application's last active key in its environment." }),
});

const KEY_ID = { name: "id", in: "path", required: true, description: "The key's id (`key_…`).", schema: { type: "string", maxLength: 100 } };
const NO_KEY = { code: "not-found", description: "No key of an application of your teams has this id.", detail: 'There is no API key "key_…".' } as const;
const TEAM_ROLE = {
  code: "team-role-required",
  description: "Your role in the application's team is below admin.",
  detail: "This needs the admin role in the team; yours is member.",
} as const;

export const KEY_OPERATIONS = [
  operation({
    id: "listApiKeys",
    method: "GET",
    path: "/keys",
    scope: "credentials:read",
    tags: ["API keys"],
    summary: "List the API keys of your applications",
    query: keyQuerySchema,
    responses: () => ({ "200": jsonAnswer("The keys, newest first, revoked and expired ones too; never the keys themselves.", keyListSchema) }),
    problems: [INVALID],
    handle: async ({ db, caller, query }) =>
      ok({ keys: await listApiKeys({ db, viewer: { userId: caller.user.id }, ...parse(keyQuerySchema, query, "query") }) }),
  }),
  operation({
    id: "createApiKey",
    method: "POST",
    path: "/keys",
    scope: "credentials:write",
    tags: ["API keys"],
    summary: "Create an API key",
    description:
      "A key of the application's active credential in the environment, with that credential's grants and scopes. The answer holds the key, shown once.",
    requestBody: jsonBody(newApiKeySchema),
    responses: () => ({ "201": jsonAnswer("The key and its summary.", issuedKeySchema) }),
    problems: [INVALID, { code: "not-found", description: "No application of your teams has an active credential there.", detail: "…" }, TEAM_ROLE],
    handle: async ({ db, caller, body }) => ok(await createApiKey({ db, actor: caller.actor, viewer: { userId: caller.user.id }, input: body }), 201),
  }),
  operation({
    id: "rollApiKey",
    method: "POST",
    path: "/keys/{id}/roll",
    scope: "credentials:write",
    tags: ["API keys"],
    summary: "Roll an API key, with an overlap",
    description: "Answers a new key once; the old one keeps working for `overlap` (`1h`, `7d`…; 24 hours unless given, at most 30 days).",
    pathParameters: [KEY_ID],
    requestBody: jsonBody(rollApiKeySchema),
    responses: () => ({ "201": jsonAnswer("The new key, and the old one with its new expiry.", rolledKeySchema) }),
    problems: [
      INVALID,
      NO_KEY,
      TEAM_ROLE,
      { code: "api-key-inactive", description: "The key is revoked or expired.", detail: "The API key key_… is revoked." },
    ],
    handle: async ({ db, caller, params, body }) =>
      ok(await rollApiKey({ db, actor: caller.actor, viewer: { userId: caller.user.id }, id: params.id ?? "", input: body }), 201),
  }),
  operation({
    id: "revokeApiKey",
    method: "DELETE",
    path: "/keys/{id}",
    scope: "credentials:write",
    tags: ["API keys"],
    summary: "Revoke an API key",
    description: "The gateway refuses it within a second. The application's last active key in its environment is revoked only with `last=true`.",
    pathParameters: [KEY_ID],
    query: revokeQuerySchema,
    responses: () => ({ "200": jsonAnswer("The revoked key.", apiKeySchema) }),
    problems: [
      NO_KEY,
      TEAM_ROLE,
      { code: "api-key-last", description: "It is the application's last active key there.", detail: "The API key key_… is the last active key…" },
    ],
    handle: async ({ db, caller, params, query }) => {
      const { last } = parse(revokeQuerySchema, query, "query");
      return ok(await revokeApiKey({ db, actor: caller.actor, viewer: { userId: caller.user.id }, id: params.id ?? "", input: { last: last === "true" } }));
    },
  }),
];
