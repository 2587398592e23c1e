import { exportContact, exportContactOperation } from '@/lib/domain/contacts';
import { methodNotAllowed, ok, route } from '@/lib/platform/next';

export const GET = route(exportContactOperation, async ({ db, orgId, params }) =>
  ok(await exportContact(db, orgId, params.id), {
    'Content-Disposition': `attachment; filename="contact-${params.id}.json"`,
    // Personal data: no shared cache keeps a copy.
    'Cache-Control': 'no-store',
  }),
);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
