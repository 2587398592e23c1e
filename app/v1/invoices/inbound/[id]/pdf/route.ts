import { inboundPdf } from '@/lib/domain/einvoicing/inbound';
import { getInboundPdfOperation } from '@/lib/domain/einvoicing/inbound/operations';
import { methodNotAllowed, route } from '@/lib/platform/http/handler';
import { storedPdfResponse } from '@/lib/domain/pdf/stored-pdf';

export const GET = route(getInboundPdfOperation, async ({ req, db, orgId, params, query }) =>
  storedPdfResponse(req, await inboundPdf(db, orgId, params.id), query.download),
);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
