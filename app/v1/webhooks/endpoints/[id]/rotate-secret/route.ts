import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';
import { rotateSecret } from '@/lib/domain/webhooks/endpoints';
import { rotateSecretOperation } from '@/lib/domain/webhooks/operations';

export const POST = route(rotateSecretOperation, async ({ db, orgId, params }) => ok(await rotateSecret(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
