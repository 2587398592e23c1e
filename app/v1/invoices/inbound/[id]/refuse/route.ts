import { answerInbound } from '@/lib/domain/einvoicing/inbound';
import { refuseInboundOperation } from '@/lib/domain/einvoicing/inbound/operations';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const POST = route(refuseInboundOperation, async ({ db, orgId, params, body }) => ok(await answerInbound(db, orgId, params.id, 'refuse', body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
