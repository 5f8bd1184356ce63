"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { DataTable } from "@/components/data-table";
import { BUTTON_CLASS, Field, INPUT_CLASS, SECONDARY_BUTTON_CLASS } from "./field";
import { portalFetch } from "./portal-fetch";
import { SubmitButton } from "@/components/submit-button";
import { ActionButton } from "@/components/action-button";

type Attempt = { at: string; statusCode: number | null; durationMs: number; error: string | null };
type Delivery = { id: string; type: string; occurredAt: string; status: string; attempts: Attempt[]; nextAttemptAt: string | null };
type Endpoint = {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  previousSecretValidUntil: string | null;
  deliveries: Delivery[];
};
type Team = { id: string; name: string; role: "owner" | "admin" | "member"; endpoints: Endpoint[] };
type EventType = { type: string; description: string };

/** A team's webhook endpoints with their delivery logs; owners and admins also get the forms and buttons that change them. */
export function WebhookTeam({ team, eventTypes }: { team: Team; eventTypes: EventType[] }) {
  const router = useRouter();
  const manages = team.role !== "member";
  const [secret, setSecret] = useState<{ endpointId: string; secret: string } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [urlError, setUrlError] = useState<string | undefined>();

  async function act(url: string, method: string, body?: unknown) {
    const result = await portalFetch<{ endpoint?: { id: string }; secret?: string }>(url, method, body);
    if (!result.ok) {
      setMessage(result.message);
      setUrlError(result.fieldErrors.url);
      return;
    }
    setMessage(null);
    setUrlError(undefined);
    if (result.data.secret && result.data.endpoint) setSecret({ endpointId: result.data.endpoint.id, secret: result.data.secret });
    router.refresh();
  }

  function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    act("/api/portal/webhooks", "POST", { teamId: team.id, url: form.get("url"), events: form.getAll("events") });
  }

  const base = (endpoint: Endpoint) => `/api/portal/webhooks/${encodeURIComponent(endpoint.id)}`;

  return (
    <section aria-labelledby={`team-${team.id}`} className="space-y-4 rounded-lg border border-slate-200 bg-white p-6">
      <h2 id={`team-${team.id}`} className="text-lg font-semibold">
        {team.name} <span className="text-sm font-normal text-slate-600">({team.role})</span>
      </h2>
      {message ? (
        <p role="alert" className="text-red-800">
          {message}
        </p>
      ) : null}
      {secret ? (
        <div role="alert" className="space-y-2 rounded border-2 border-amber-500 bg-amber-50 p-3">
          <p className="font-semibold text-amber-900">Copy this signing secret now. It is shown only once.</p>
          <code data-testid="webhook-secret" className="block break-all rounded bg-white px-1">
            {secret.secret}
          </code>
          <ActionButton onClick={() => setSecret(null)} className={SECONDARY_BUTTON_CLASS}>
            I have stored it
          </ActionButton>
        </div>
      ) : null}
      {team.endpoints.length === 0 ? <p className="text-slate-700">No endpoints.</p> : null}
      {team.endpoints.map((endpoint) => (
        <article key={endpoint.id} aria-label={`Endpoint ${endpoint.url}`} className="space-y-2 border-t border-slate-200 pt-3">
          <p className="break-all font-mono text-sm">{endpoint.url}</p>
          <p className="text-sm text-slate-700">
            {endpoint.enabled ? "Enabled" : `Disabled: ${endpoint.disabledReason ?? "no reason given"}`} · {endpoint.events.join(", ")}
            {endpoint.previousSecretValidUntil ? ` · previous secret also signs until ${new Date(endpoint.previousSecretValidUntil).toUTCString()}` : ""}
          </p>
          {manages ? (
            <div className="flex flex-wrap gap-2">
              <ActionButton className={SECONDARY_BUTTON_CLASS} onClick={() => act(`${base(endpoint)}/rotate-secret`, "POST")}>
                Rotate secret
              </ActionButton>
              <ActionButton className={SECONDARY_BUTTON_CLASS} onClick={() => act(base(endpoint), "PATCH", { enabled: !endpoint.enabled })}>
                {endpoint.enabled ? "Disable" : "Enable"}
              </ActionButton>
              <ActionButton className={SECONDARY_BUTTON_CLASS} onClick={() => act(base(endpoint), "DELETE")}>
                Delete
              </ActionButton>
            </div>
          ) : null}
          <DataTable
            caption={`Deliveries to ${endpoint.url}`}
            rows={endpoint.deliveries}
            rowKey={(delivery) => delivery.id}
            columns={[
              {
                header: "Event",
                cell: (delivery) => (
                  <>
                    <code>{delivery.type}</code> {new Date(delivery.occurredAt).toUTCString()}
                  </>
                ),
              },
              { header: "Status", cell: (delivery) => delivery.status },
              {
                header: "Attempts",
                cell: (delivery) =>
                  delivery.attempts.map((attempt) => (
                    <div key={attempt.at}>
                      {attempt.statusCode ?? "no answer"} in {attempt.durationMs} ms{attempt.error ? `: ${attempt.error}` : ""}
                    </div>
                  )),
              },
              ...(manages
                ? [
                    {
                      header: "Replay",
                      cell: (delivery: Delivery) => (
                        <ActionButton
                          className={SECONDARY_BUTTON_CLASS}
                          onClick={() => act(`${base(endpoint)}/deliveries/${encodeURIComponent(delivery.id)}/replay`, "POST")}
                        >
                          Replay
                        </ActionButton>
                      ),
                    },
                  ]
                : []),
            ]}
          />
        </article>
      ))}
      {manages ? (
        <form onSubmit={create} className="space-y-3 border-t border-slate-200 pt-3">
          <h3 className="font-semibold">Add an endpoint</h3>
          <Field id={`url-${team.id}`} label="URL" error={urlError}>
            <input id={`url-${team.id}`} name="url" type="url" required className={INPUT_CLASS} placeholder="https://example.com/webhooks" />
          </Field>
          <fieldset className="space-y-1">
            <legend className="text-sm font-medium">Events</legend>
            {eventTypes.map((eventType) => (
              <label key={eventType.type} className="flex items-start gap-2 text-sm">
                <input type="checkbox" name="events" value={eventType.type} defaultChecked className="mt-1" />
                <span>
                  <code>{eventType.type}</code> {eventType.description}
                </span>
              </label>
            ))}
          </fieldset>
          <SubmitButton className={BUTTON_CLASS}>Add endpoint</SubmitButton>
        </form>
      ) : null}
    </section>
  );
}
