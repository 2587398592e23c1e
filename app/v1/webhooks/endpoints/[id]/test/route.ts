import { accepted, methodNotAllowed, route } from '@/lib/platform/http/handler';
import { sendTestEvent } from '@/lib/domain/webhooks/endpoints';
import { testEndpointOperation } from '@/lib/domain/webhooks/operations';

export const POST = route(testEndpointOperation, async ({ db, orgId, params }) => accepted(await sendTestEvent(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
