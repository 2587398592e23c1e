import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { envelopeTimeline, envelopeTimelineOperation } from '@/lib/domain/signature';

export const GET = route(envelopeTimelineOperation, async ({ db, orgId, params }) => ok(await envelopeTimeline(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
