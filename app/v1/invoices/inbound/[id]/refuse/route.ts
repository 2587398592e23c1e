import { answerInbound, refuseInboundOperation } from '@/lib/domain/einvoicing';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(refuseInboundOperation, async ({ db, orgId, params, body }) => ok(await answerInbound(db, orgId, params.id, 'refuse', body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
