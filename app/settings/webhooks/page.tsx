import type { Metadata } from "next";
import { WebhookTeam } from "@/components/settings/webhook-team";
import { requireUser } from "@/lib/auth/session";
import { db } from "@/lib/db";
import { EVENT_TYPES } from "@/lib/events/registry";
import { WEBHOOK_EVENT_TYPES } from "@/lib/events/event-teams";
import { myWebhooks } from "@/lib/webhooks/my-webhooks";

export const metadata: Metadata = { title: "Webhooks" };
export const dynamic = "force-dynamic";

export default async function WebhooksPage() {
  const user = await requireUser("/settings/webhooks");
  const teams = await myWebhooks({ db: db(), user });
  const eventTypes = WEBHOOK_EVENT_TYPES.map((type) => ({ type, description: EVENT_TYPES[type].description }));
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-bold">Webhooks</h1>
        <p className="text-slate-700">
          Your teams&apos; endpoints receive their events as signed HTTP POSTs (Standard Webhooks). Owners and admins of a team manage its endpoints; members
          see them and their delivery log.
        </p>
      </div>
      {teams.map((team) => (
        <WebhookTeam key={team.id} team={team} eventTypes={eventTypes} />
      ))}
    </div>
  );
}
