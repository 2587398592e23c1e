import { inboundPdf } from '@/lib/einvoicing/inbound';
import { getInboundPdfOperation } from '@/lib/einvoicing/inbound/operations';
import { methodNotAllowed, route } from '@/lib/http/handler';
import { storedPdfResponse } from '@/lib/pdf/stored-pdf';

export const GET = route(getInboundPdfOperation, async ({ req, db, orgId, params, query }) =>
  storedPdfResponse(req, await inboundPdf(db, orgId, params.id), query.download),
);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
