import { JsonSettingsForm } from "@/components/admin/json-settings-form";

/** The API's `{ policies, routes }` as JSON text; the server checks it against the policies' schema and the API's documents. */
export function ApiPoliciesForm({ slug, initial }: { slug: string; initial: string }) {
  return (
    <JsonSettingsForm
      id="api-policies"
      label="Policies (JSON)"
      hint='{ "policies": { ... }, "routes": { "GET /v1/items/{id}": { ... } } }: requestValidation, responseCache, websocket; {} for none'
      url={`/api/portal/admin/apis/${slug}/policies`}
      method="POST"
      initial={initial}
      rootField="policies"
      submitLabel="Save policies"
      savedMessage="Saved: the gateway applies the policies within seconds."
    />
  );
}
