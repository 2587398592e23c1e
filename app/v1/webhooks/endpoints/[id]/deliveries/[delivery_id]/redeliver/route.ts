import { accepted, methodNotAllowed, route } from '@/lib/platform/next';
import { redeliver, redeliverOperation } from '@/lib/domain/webhooks';

export const POST = route(redeliverOperation, async ({ db, orgId, params }) => accepted(await redeliver(db, orgId, params.id, params.delivery_id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
