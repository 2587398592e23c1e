import { methodNotAllowed, ok, publicApiRoute } from '@/lib/platform/next';
import { SIGN_LIMIT_PREFIX, SignBody, signEnvelope, SignerParams, SignerQuery } from '@/lib/domain/signature';

/** Signs (typed or drawn): 409 consent_required, verification_required, fields_incomplete, uploads_incomplete, not_your_turn. */
export const POST = publicApiRoute({ limitPrefix: SIGN_LIMIT_PREFIX, params: SignerParams, query: SignerQuery, body: SignBody }, async ({ db, params, query, body, ip, userAgent }) =>
  ok(await signEnvelope(db, params.token, body.signature, { ip, userAgent }, query.lang)),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
