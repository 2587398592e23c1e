import { methodNotAllowed, ok, route } from '@/lib/http/handler';
import { setupMandate, setupSepaMandateOperation } from '@/lib/payments';

export const POST = route(setupSepaMandateOperation, async ({ db, orgId, params }) => ok(await setupMandate(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
