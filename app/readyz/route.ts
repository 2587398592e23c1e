import { readiness } from '@/lib/composition/readiness';

// Readiness for load balancers and orchestrators (lib/composition/readiness.ts): 200 when the database, the
// migrations, the job queue and the storage are ready, else 503 naming what is not. /healthz is the liveness.
export const dynamic = 'force-dynamic';

export async function GET() {
  const state = await readiness();
  return Response.json(state, { status: state.ready ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
}
