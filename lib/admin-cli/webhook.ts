import { noPositionals, requiredFlag } from "./args";
import { type CommandGroup, command } from "./command";
import { asUsageError } from "./problem-usage";
import { teamByName } from "./team";

async function services() {
  const [{ db }, { CLI_ACTOR }, endpoints, deliveries] = await Promise.all([
    import("../db"),
    import("../audit/write-audit"),
    import("../webhooks/endpoints"),
    import("../webhooks/deliveries"),
  ]);
  return { db: db(), actor: CLI_ACTOR, ...endpoints, ...deliveries };
}

const create = command(
  {
    usage: "webhook create --team <name> --url <url> --events <type,type>",
    summary: "Registers a team's webhook endpoint for the event types listed and prints its signing secret once.",
  },
  async (args) => {
    noPositionals(args);
    const team = await teamByName(requiredFlag(args, "team"));
    const url = requiredFlag(args, "url");
    const events = requiredFlag(args, "events")
      .split(",")
      .map((type) => type.trim())
      .filter(Boolean);
    const { db, actor, createWebhookEndpoint } = await services();
    const { endpoint, secret } = await asUsageError(() => createWebhookEndpoint({ db, actor, input: { teamId: team.id, url, events } }));
    return { ...endpoint, team: team.name, secret };
  },
);

const list = command({ usage: "webhook list --team <name>", summary: "Lists a team's webhook endpoints." }, async (args) => {
  noPositionals(args);
  const team = await teamByName(requiredFlag(args, "team"));
  const { db, actor, listWebhookEndpoints } = await services();
  return { team: team.name, endpoints: await asUsageError(() => listWebhookEndpoints({ db, actor, teamId: team.id })) };
});

const rotateSecret = command(
  {
    usage: "webhook rotate-secret --id <endpoint id>",
    summary: "Gives an endpoint a new signing secret, printed once; the previous one also signs for 24 hours.",
  },
  async (args) => {
    noPositionals(args);
    const endpointId = requiredFlag(args, "id");
    const { db, actor, rotateWebhookSecret } = await services();
    const { endpoint, secret } = await asUsageError(() => rotateWebhookSecret({ db, actor, endpointId }));
    return { ...endpoint, secret };
  },
);

const deliveries = command(
  { usage: "webhook deliveries --id <endpoint id>", summary: "Shows an endpoint's latest deliveries with each attempt's status code." },
  async (args) => {
    noPositionals(args);
    const endpointId = requiredFlag(args, "id");
    const { db, actor, webhookDeliveries } = await services();
    return { endpoint: endpointId, deliveries: await asUsageError(() => webhookDeliveries({ db, actor, endpointId })) };
  },
);

const replay = command(
  { usage: "webhook replay --id <endpoint id> --delivery <delivery id>", summary: "Sends an event to the endpoint again, as a new delivery." },
  async (args) => {
    noPositionals(args);
    const endpointId = requiredFlag(args, "id");
    const deliveryId = requiredFlag(args, "delivery");
    const { db, actor, replayWebhookDelivery } = await services();
    return await asUsageError(() => replayWebhookDelivery({ db, actor, endpointId, deliveryId }));
  },
);

export const commands: CommandGroup = { create, list, "rotate-secret": rotateSecret, deliveries, replay };
