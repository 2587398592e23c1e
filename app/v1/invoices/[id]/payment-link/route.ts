import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { createPaymentLink, createPaymentLinkOperation } from '@/lib/domain/payments';

export const POST = route(createPaymentLinkOperation, async ({ db, orgId, params }) => ok(await createPaymentLink(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
