import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';
import { validateDocumentEInvoice } from '@/lib/domain/pdf';
import { validateDocumentOperation } from '@/lib/domain/pdf/operations';

export const GET = route(validateDocumentOperation, async ({ db, orgId, params }) => ok(await validateDocumentEInvoice(db, orgId, params.id)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
