// Liveness for load balancers: answers without touching the database.
export function GET() {
  return Response.json({ ok: true });
}
