import { methodNotAllowed, publicApiRoute } from '@/lib/platform/next';
import { storedPdfResponse } from '@/lib/domain/pdf';
import { SIGN_LIMIT_PREFIX, SignerParams, signerSignedPdf } from '@/lib/domain/signature';

/** The signed PDF of the link's own envelope, for its signer, for a while after completion (docs/signature.md). */
export const GET = publicApiRoute({ limitPrefix: SIGN_LIMIT_PREFIX, params: SignerParams }, async ({ db, params, req }) =>
  storedPdfResponse(req, await signerSignedPdf(db, params.token), true),
);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
