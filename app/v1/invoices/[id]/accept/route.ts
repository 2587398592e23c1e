import { acceptQuote, acceptQuoteOperation } from '@/lib/domain/documents';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(acceptQuoteOperation, async ({ db, orgId, params }) => ok(await acceptQuote(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
