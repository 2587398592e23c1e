import { createDeposit } from '@/lib/documents/create-deposit';
import { createDepositOperation } from '@/lib/documents/operations';
import { created, methodNotAllowed, route } from '@/lib/http/handler';

export const POST = route(createDepositOperation, async ({ db, orgId, params, body }) => created(await createDeposit(db, orgId, params.id, body)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
