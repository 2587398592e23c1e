import { methodNotAllowed, ok, route } from '@/lib/platform/http/handler';
import { trackingOperation } from '@/lib/domain/reminders/operations';
import { reminderTracking } from '@/lib/domain/reminders/tracking';

// A static segment: Next.js matches /v1/invoices/reminders/… here before the dynamic /v1/invoices/[id]/….
export const GET = route(trackingOperation, async ({ db, orgId }) => ok(await reminderTracking(db, orgId)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
