import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { validateDocumentEInvoice, validateDocumentOperation } from '@/lib/domain/pdf';

export const GET = route(validateDocumentOperation, async ({ db, orgId, params }) => ok(await validateDocumentEInvoice(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
