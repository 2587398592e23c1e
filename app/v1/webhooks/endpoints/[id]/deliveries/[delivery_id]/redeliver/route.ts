import { accepted, methodNotAllowed, route } from '@/lib/http/handler';
import { redeliver } from '@/lib/webhooks/endpoints';
import { redeliverOperation } from '@/lib/webhooks/operations';

export const POST = route(redeliverOperation, async ({ db, orgId, params }) => accepted(await redeliver(db, orgId, params.id, params.delivery_id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
