import { rejectQuoteOperation } from '@/lib/domain/documents/operations';
import { rejectQuote } from '@/lib/domain/documents/quote-decision';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const POST = route(rejectQuoteOperation, async ({ db, orgId, params }) => ok(await rejectQuote(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
