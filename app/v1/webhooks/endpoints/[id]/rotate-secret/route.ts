import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { rotateSecret, rotateSecretOperation } from '@/lib/domain/webhooks';

export const POST = route(rotateSecretOperation, async ({ db, orgId, params }) => ok(await rotateSecret(db, orgId, params.id)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
