import { methodNotAllowed, ok, route } from '@/lib/http/handler';
import { validateDocumentEInvoice } from '@/lib/pdf';
import { validateDocumentOperation } from '@/lib/pdf/operations';

export const GET = route(validateDocumentOperation, async ({ db, orgId, params }) => ok(await validateDocumentEInvoice(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
