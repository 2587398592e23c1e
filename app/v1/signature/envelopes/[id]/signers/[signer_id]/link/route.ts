import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { signerLink, signerLinkOperation } from '@/lib/domain/signature';

export const POST = route(signerLinkOperation, async ({ db, orgId, params }) => ok(await signerLink(db, orgId, params.id, params.signer_id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
