import { accepted, methodNotAllowed, publicApiRoute } from '@/lib/platform/next';
import { requestSignerCode, SIGN_LIMIT_PREFIX, SignerParams, SignerQuery } from '@/lib/domain/signature';

/** Sends a one-time code by e-mail or SMS: 202. */
export const POST = publicApiRoute({ limitPrefix: SIGN_LIMIT_PREFIX, params: SignerParams, query: SignerQuery }, async ({ db, params, query, ip, userAgent }) =>
  accepted(await requestSignerCode(db, params.token, { ip, userAgent }, query.lang)),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
