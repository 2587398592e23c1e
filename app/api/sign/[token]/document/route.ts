import { methodNotAllowed, publicApiRoute } from '@/lib/platform/next';
import { SIGN_LIMIT_PREFIX, signerDocument, SignerParams } from '@/lib/domain/signature';

/** The PDF to sign, with its SHA-256 as ETag. */
export const GET = publicApiRoute({ limitPrefix: SIGN_LIMIT_PREFIX, params: SignerParams }, async ({ db, params, req }) =>
  signerDocument(db, params.token, req.headers.get('if-none-match')),
);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
