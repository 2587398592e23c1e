import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { setupMandate, setupSepaMandateOperation } from '@/lib/domain/payments';

export const POST = route(setupSepaMandateOperation, async ({ db, orgId, params }) => ok(await setupMandate(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
