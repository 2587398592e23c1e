import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';
import { createForm, createFormOperation, listForms, listFormsOperation } from '@/lib/domain/signature';

export const GET = route(listFormsOperation, async ({ db, orgId, query }) => ok(await listForms(db, orgId, query)));
export const POST = route(createFormOperation, async ({ db, orgId, body }) => created(await createForm(db, orgId, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
