import { convertToFacture, convertToFactureOperation } from '@/lib/domain/documents';
import { created, methodNotAllowed, ok, route } from '@/lib/platform/next';

// 201 when an invoice is created; 200 for a dry run, which creates nothing.
export const POST = route(convertToFactureOperation, async ({ db, orgId, params, query }) => {
  const dryRun = query.dry_run === true;
  const invoice = await convertToFacture(db, orgId, params.id, { dryRun });
  return dryRun ? ok(invoice) : created(invoice);
});
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
