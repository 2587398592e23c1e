import { accepted, methodNotAllowed, route } from '@/lib/platform/next';
import { sendTestEvent, testEndpointOperation } from '@/lib/domain/webhooks';

export const POST = route(testEndpointOperation, async ({ db, orgId, params }) => accepted(await sendTestEvent(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
