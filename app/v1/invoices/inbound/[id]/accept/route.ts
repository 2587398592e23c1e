import { acceptInboundOperation, answerInbound } from '@/lib/domain/einvoicing';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(acceptInboundOperation, async ({ db, orgId, params, body }) => ok(await answerInbound(db, orgId, params.id, 'accept', body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
