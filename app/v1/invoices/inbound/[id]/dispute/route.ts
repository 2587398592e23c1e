import { answerInbound } from '@/lib/domain/einvoicing/inbound';
import { disputeInboundOperation } from '@/lib/domain/einvoicing/inbound/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const POST = route(disputeInboundOperation, async ({ db, orgId, params, body }) => ok(await answerInbound(db, orgId, params.id, 'dispute', body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
