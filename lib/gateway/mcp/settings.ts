import { z } from "zod";
import { routeKeySchema } from "../policies/policy-set";

/** What MCP clients accept as a tool's name (openapi-mcp-generator#4, microsoft/vscode#243602). */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export const toolNameSchema = z.string().max(64).regex(TOOL_NAME, "A tool name is 1 to 64 letters, digits, '_' or '-'");

/**
 * An API's MCP server (`/mcp/{env}/{api}`): off unless `enabled`. `include` keeps only the
 * operations it names, `exclude` drops those it names, both as "METHOD /path-template";
 * `toolNames` renames the tool of an operation.
 */
export const mcpSettingsSchema = z
  .object({
    enabled: z.boolean().meta({ description: "Serve the API's operations as the tools of an MCP server at /mcp/{env}/{api}." }),
    include: z
      .array(routeKeySchema)
      .max(1_000)
      .optional()
      .meta({ description: 'Only these operations become tools, each "METHOD /path-template"; left out, all of them.' }),
    exclude: z.array(routeKeySchema).max(1_000).optional().meta({ description: 'These operations become no tool, each "METHOD /path-template".' }),
    toolNames: z
      .record(routeKeySchema, toolNameSchema)
      .optional()
      .meta({ description: 'The tool name of an operation, by "METHOD /path-template"; left out, its operationId sanitised.' }),
  })
  .strict()
  .refine(({ toolNames = {} }) => new Set(Object.values(toolNames)).size === Object.keys(toolNames).length, {
    path: ["toolNames"],
    message: "Each tool name is given to one operation",
  });

export type McpSettings = z.infer<typeof mcpSettingsSchema>;

export const MCP_OFF: McpSettings = Object.freeze({ enabled: false });

/** The `Api.mcp` column read: off when it holds nothing or what no write would have stored (a column edited by hand). */
export function storedMcpSettings(column: unknown): McpSettings {
  if (column === null || column === undefined) return MCP_OFF;
  return mcpSettingsSchema.safeParse(column).data ?? MCP_OFF;
}
