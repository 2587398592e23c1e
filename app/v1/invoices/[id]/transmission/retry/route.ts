import { retryTransmission, retryTransmissionOperation } from '@/lib/domain/einvoicing';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(retryTransmissionOperation, async ({ db, orgId, params }) => ok(await retryTransmission(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
