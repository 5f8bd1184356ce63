// The benchmark's baseline: the cheapest possible Next route handler.
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ ok: true });
}
