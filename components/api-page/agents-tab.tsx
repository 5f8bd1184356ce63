import type { CatalogApi, CatalogEnvironment } from "@/lib/catalog/catalog-api";
import { mcpUrl } from "@/lib/catalog/llms-txt";
import { CodeExample } from "./code-example";

/** A tool as the tab lists it: what an agent sees in `tools/list`. */
export type ListedTool = { name: string; description: string; readOnly: boolean };

type Props = { api: CatalogApi; env: CatalogEnvironment; publicUrl: string; tools: ListedTool[] };

/** The API's MCP server: its URL per environment, configuration to paste into common clients, and its tools (docs/mcp.md). */
export function AgentsTab({ api, env, publicUrl, tools }: Props) {
  const url = mcpUrl(publicUrl, env.slug, api.slug);
  // The client signs in by itself (OAuth for agents, decision 067): the URL is all it needs.
  const server = { type: "http", url };
  const mcpServers = JSON.stringify({ mcpServers: { [api.slug]: server } }, null, 2);
  const vscode = JSON.stringify({ servers: { [api.slug]: server } }, null, 2);
  return (
    <div className="space-y-8">
      <section aria-labelledby="agents-urls" className="space-y-3">
        <h2 id="agents-urls" className="text-xl font-semibold">
          MCP server
        </h2>
        <p className="max-w-prose text-slate-700">
          {`AI agents call ${api.name} as the tools of a Model Context Protocol server (Streamable HTTP). Each tool call is a gateway call: it counts against your credential's rate limit and usage, and is refused as a call would be.`}
        </p>
        <p className="max-w-prose text-slate-700">
          The agent signs in by itself: on its first call, this portal asks you to approve it and to choose which of your credentials it acts as. Settings →
          Connected agents lists the agents you approved and revokes them. A client that cannot sign in may send an access token of the environment as{" "}
          <code className="font-mono">Authorization: Bearer</code> instead.
        </p>
        <dl className="space-y-2 text-sm">
          {api.environments.map((item) => (
            <div key={item.slug} aria-current={item.slug === env.slug ? "true" : undefined}>
              <dt className="font-medium text-slate-600">{item.name}</dt>
              <dd className="break-all font-mono">{mcpUrl(publicUrl, item.slug, api.slug)}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="agents-config" className="space-y-3">
        <h2 id="agents-config" className="text-xl font-semibold">
          Configuration to copy
        </h2>
        <CodeExample title="mcpServers entry (Claude Desktop, Cursor and others)" code={mcpServers} />
        <CodeExample title="VS Code: .vscode/mcp.json" code={vscode} />
      </section>
      <section aria-labelledby="agents-tools" className="space-y-3">
        <h2 id="agents-tools" className="text-xl font-semibold">
          {`Tools (${tools.length})`}
        </h2>
        <ul className="space-y-3">
          {tools.map((tool) => (
            <li key={tool.name} className="rounded-lg border border-slate-200 bg-white p-4">
              <p className="font-mono font-semibold">
                {tool.name}
                {tool.readOnly ? <span className="ml-2 font-sans text-sm font-normal text-slate-600">read-only</span> : null}
              </p>
              <p className="mt-1 whitespace-pre-line text-sm text-slate-700">{tool.description}</p>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
