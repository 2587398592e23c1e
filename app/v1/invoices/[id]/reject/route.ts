import { rejectQuoteOperation } from '@/lib/documents/operations';
import { rejectQuote } from '@/lib/documents/quote-decision';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const POST = route(rejectQuoteOperation, async ({ db, orgId, params }) => ok(await rejectQuote(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
