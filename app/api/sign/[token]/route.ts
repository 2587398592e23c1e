import { methodNotAllowed, ok, publicApiRoute } from '@/lib/platform/next';
import { getSignerState, SIGN_LIMIT_PREFIX, SignerParams, SignerQuery } from '@/lib/domain/signature';

/** The signer's state (DESIGN §12); the first visit marks the signer opened. */
export const GET = publicApiRoute({ limitPrefix: SIGN_LIMIT_PREFIX, params: SignerParams, query: SignerQuery }, async ({ db, params, query, ip, userAgent }) =>
  ok(await getSignerState(db, params.token, { ip, userAgent }, query.lang)),
);
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
