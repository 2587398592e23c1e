import { methodNotAllowed, ok, publicApiRoute } from '@/lib/platform/next';
import { DeclineBody, declineToSign, SIGN_LIMIT_PREFIX, SignerParams, SignerQuery } from '@/lib/domain/signature';

/** Declines with a reason: the envelope is closed for everyone. */
export const POST = publicApiRoute({ limitPrefix: SIGN_LIMIT_PREFIX, params: SignerParams, query: SignerQuery, body: DeclineBody }, async ({ db, params, query, body, ip, userAgent }) =>
  ok(await declineToSign(db, params.token, body.reason, { ip, userAgent }, query.lang)),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
