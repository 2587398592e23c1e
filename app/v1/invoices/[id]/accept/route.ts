import { acceptQuoteOperation } from '@/lib/domain/documents/operations';
import { acceptQuote } from '@/lib/domain/documents/quote-decision';
import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';

export const POST = route(acceptQuoteOperation, async ({ db, orgId, params }) => ok(await acceptQuote(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
