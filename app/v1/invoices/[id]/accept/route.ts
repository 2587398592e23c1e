import { acceptQuoteOperation } from '@/lib/documents/operations';
import { acceptQuote } from '@/lib/documents/quote-decision';
import { methodNotAllowed, ok, route } from '@/lib/http/handler';

export const POST = route(acceptQuoteOperation, async ({ db, orgId, params }) => ok(await acceptQuote(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
