import { runRecurringOperation, runRecurringTemplate } from '@/lib/domain/recurring';
import { created, methodNotAllowed, route } from '@/lib/platform/next';

export const POST = route(runRecurringOperation, async ({ db, orgId, params }) => created(await runRecurringTemplate(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
