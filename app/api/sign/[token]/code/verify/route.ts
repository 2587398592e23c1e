import { methodNotAllowed, ok, publicApiRoute } from '@/lib/platform/next';
import { SIGN_LIMIT_PREFIX, SignerParams, SignerQuery, VerifyCodeBody, verifySignerCode } from '@/lib/domain/signature';

/** Checks the code: 422 invalid_code, 423 signer_locked at the fifth failure. */
export const POST = publicApiRoute(
  { limitPrefix: SIGN_LIMIT_PREFIX, params: SignerParams, query: SignerQuery, body: VerifyCodeBody },
  async ({ db, params, query, body, ip, userAgent }) => ok(await verifySignerCode(db, params.token, body.code, { ip, userAgent }, query.lang)),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
