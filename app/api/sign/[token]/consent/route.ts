import { methodNotAllowed, ok, publicApiRoute } from '@/lib/platform/next';
import { consentToSign, SIGN_LIMIT_PREFIX, SignerParams, SignerQuery } from '@/lib/domain/signature';

/** The consent to sign electronically, with the version of its text. */
export const POST = publicApiRoute({ limitPrefix: SIGN_LIMIT_PREFIX, params: SignerParams, query: SignerQuery }, async ({ db, params, query, ip, userAgent }) =>
  ok(await consentToSign(db, params.token, { ip, userAgent }, query.lang)),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
