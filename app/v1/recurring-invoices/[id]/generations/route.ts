import { listGenerationsOperation, listRecurringGenerations } from '@/lib/domain/recurring';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(listGenerationsOperation, async ({ db, orgId, params, query }) => ok(await listRecurringGenerations(db, orgId, params.id, query)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
