import { accepted, methodNotAllowed, route } from '@/lib/platform/http/handler';
import { redeliver } from '@/lib/domain/webhooks/endpoints';
import { redeliverOperation } from '@/lib/domain/webhooks/operations';

export const POST = route(redeliverOperation, async ({ db, orgId, params }) => accepted(await redeliver(db, orgId, params.id, params.delivery_id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
