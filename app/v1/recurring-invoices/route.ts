import { createRecurringOperation, createRecurringTemplate, listRecurringOperation, listRecurringTemplates } from '@/lib/domain/recurring';
import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(listRecurringOperation, async ({ db, orgId, query }) => ok(await listRecurringTemplates(db, orgId, query)));
export const POST = route(createRecurringOperation, async ({ db, orgId, body }) => created(await createRecurringTemplate(db, orgId, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
