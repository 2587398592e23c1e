import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';
import { createTemplate, createTemplateOperation, listTemplates, listTemplatesOperation } from '@/lib/domain/signature';

export const GET = route(listTemplatesOperation, async ({ db, orgId, query }) => ok(await listTemplates(db, orgId, query)));
export const POST = route(createTemplateOperation, async ({ db, orgId, body }) => created(await createTemplate(db, orgId, body)));
export const { PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'POST');
