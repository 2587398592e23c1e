import { createDeposit, createDepositOperation } from '@/lib/domain/documents';
import { created, methodNotAllowed, route } from '@/lib/platform/next';

export const POST = route(createDepositOperation, async ({ db, orgId, params, body }) => created(await createDeposit(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
