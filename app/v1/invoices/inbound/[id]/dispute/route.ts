import { answerInbound, disputeInboundOperation } from '@/lib/domain/einvoicing';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(disputeInboundOperation, async ({ db, orgId, params, body }) => ok(await answerInbound(db, orgId, params.id, 'dispute', body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
