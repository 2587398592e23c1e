import { getInboundPdfOperation, inboundPdf } from '@/lib/domain/einvoicing';
import { methodNotAllowed, route } from '@/lib/platform/next';
import { storedPdfResponse } from '@/lib/domain/pdf';

export const GET = route(getInboundPdfOperation, async ({ req, db, orgId, params, query }) =>
  storedPdfResponse(req, await inboundPdf(db, orgId, params.id), query.download),
);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
