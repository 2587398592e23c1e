import { getInvoiceSettings, getSettingsOperation, putInvoiceSettings, putSettingsOperation } from '@/lib/domain/invoice-settings';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(getSettingsOperation, async ({ db, orgId }) => ok(await getInvoiceSettings(db, orgId)));
export const PUT = route(putSettingsOperation, async ({ db, orgId, body }) => ok(await putInvoiceSettings(db, orgId, body)));
export const { POST, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET', 'PUT');
