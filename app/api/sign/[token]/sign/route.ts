import { methodNotAllowed, ok, publicApiRoute } from '@/lib/platform/http/handler';
import { signEnvelope } from '@/lib/domain/signature/signer-api';
import { SIGN_LIMIT_PREFIX, SignBody, SignerParams, SignerQuery } from '@/lib/domain/signature/signer-schemas';

/** Signs (typed or drawn): 409 consent_required, verification_required, fields_incomplete, uploads_incomplete, not_your_turn. */
export const POST = publicApiRoute({ limitPrefix: SIGN_LIMIT_PREFIX, params: SignerParams, query: SignerQuery, body: SignBody }, async ({ db, params, query, body, ip, userAgent }) =>
  ok(await signEnvelope(db, params.token, body.signature, { ip, userAgent }, query.lang)),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
