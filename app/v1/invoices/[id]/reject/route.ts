import { rejectQuote, rejectQuoteOperation } from '@/lib/domain/documents';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const POST = route(rejectQuoteOperation, async ({ db, orgId, params }) => ok(await rejectQuote(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
