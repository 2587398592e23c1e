import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { reminderTracking, trackingOperation } from '@/lib/domain/reminders';

// A static segment: Next.js matches /v1/invoices/reminders/… here before the dynamic /v1/invoices/[id]/….
export const GET = route(trackingOperation, async ({ db, orgId }) => ok(await reminderTracking(db, orgId)));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
