import { methodNotAllowed, ok, route } from '@/lib/http/handler';
import { envelopeTimeline, envelopeTimelineOperation } from '@/lib/signature';

export const GET = route(envelopeTimelineOperation, async ({ db, orgId, params }) => ok(await envelopeTimeline(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
