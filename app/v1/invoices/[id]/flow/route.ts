import { documentFlow } from '@/lib/billing/document-flow';
import { documentFlowOperation } from '@/lib/billing/operations';
import { ok, route } from '@/lib/http/handler';

export const GET = route(documentFlowOperation, async ({ db, orgId, params }) => ok(await documentFlow(db, orgId, params.id)));
