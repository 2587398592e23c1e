import { createDeposit } from '@/lib/billing/create-deposit';
import { createDepositOperation } from '@/lib/billing/operations';
import { created, route } from '@/lib/http/handler';

export const POST = route(createDepositOperation, async ({ db, orgId, params, body }) => created(await createDeposit(db, orgId, params.id, body)));
