/** A command's result for people: `key: value` lines, and a table for a list of records. */
export function formatHuman(result: unknown): string {
  if (result === null || typeof result !== "object") return String(result);
  return Object.entries(result)
    .map(([key, value]) => (isRecordList(value) ? `${key}:\n${table(value)}` : `${key}: ${cell(value)}`))
    .join("\n");
}

function isRecordList(value: unknown): value is Record<string, unknown>[] {
  return Array.isArray(value) && value.every((item) => item !== null && typeof item === "object" && !Array.isArray(item));
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (isRecordList(value)) return value.map(fields).join(", ");
  if (Array.isArray(value)) return value.map(cell).join(" ");
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** A record inside a table's cell (a version, a member, a delivery's attempt), its fields named: `version=v1 status=current`. */
function fields(record: Record<string, unknown>): string {
  return Object.entries(record)
    .map(([key, value]) => `${key}=${cell(value)}`)
    .join(" ");
}

function table(rows: Record<string, unknown>[]): string {
  if (rows.length === 0) return "  (none)";
  const columns = Object.keys(rows[0]!);
  const cells = [columns, ...rows.map((row) => columns.map((column) => cell(row[column])))];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
  return cells
    .map(
      (line) =>
        `  ${line
          .map((text, i) => text.padEnd(widths[i]!))
          .join("  ")
          .trimEnd()}`,
    )
    .join("\n");
}
