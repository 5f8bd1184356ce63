import { JsonSettingsForm } from "@/components/admin/json-settings-form";
import type { McpSettings } from "@/lib/gateway/mcp/settings";

/** An API's MCP server settings (`enabled`, `include`, `exclude`, `toolNames`), what they mean and the form that edits them. */
export function ApiMcpSection({ slug, settings }: { slug: string; settings: McpSettings }) {
  return (
    <section aria-labelledby="api-mcp-title" className="space-y-4">
      <h2 id="api-mcp-title" className="text-xl font-semibold">
        MCP server
      </h2>
      <p className="text-sm text-slate-700">
        {settings.enabled ? "On" : "Off"}: when on, AI agents call the operations of the API&apos;s current version as MCP tools at{" "}
        <code>
          /mcp/{"{env}"}/{slug}
        </code>
        , each tool call going through the gateway like any call. <code>include</code> keeps only the operations it names, <code>exclude</code> drops those it
        names, and <code>toolNames</code> renames a tool, each operation named &quot;METHOD /path-template&quot;.
      </p>
      <JsonSettingsForm
        id="api-mcp"
        label="MCP settings (JSON)"
        hint='{ "enabled": true, "include": ["GET /v1/items/{id}"], "exclude": [], "toolNames": { "GET /v1/items/{id}": "read_item" } }'
        url={`/api/portal/admin/apis/${slug}/mcp`}
        method="PUT"
        initial={JSON.stringify(settings, null, 2)}
        rootField="mcp"
        submitLabel="Save MCP settings"
        savedMessage="Saved: every gateway process serves the new tools within a second."
      />
    </section>
  );
}
