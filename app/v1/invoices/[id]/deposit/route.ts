import { createDeposit } from '@/lib/domain/documents/create-deposit';
import { createDepositOperation } from '@/lib/domain/documents/operations';
import { created, methodNotAllowed, route } from '@/lib/platform/http/handler';

export const POST = route(createDepositOperation, async ({ db, orgId, params, body }) => created(await createDeposit(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
