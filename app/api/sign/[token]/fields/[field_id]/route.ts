import { methodNotAllowed, ok, publicApiRoute } from '@/lib/platform/next';
import { FieldValueBody, fillSignerField, SIGN_LIMIT_PREFIX, SignerFieldParams, SignerQuery } from '@/lib/domain/signature';

/** Fills one of the signer's fields (validated by its type); null clears it. */
export const PUT = publicApiRoute(
  { limitPrefix: SIGN_LIMIT_PREFIX, params: SignerFieldParams, query: SignerQuery, body: FieldValueBody },
  async ({ db, params, query, body, ip, userAgent }) => ok(await fillSignerField(db, params.token, params.field_id, body.value, { ip, userAgent }, query.lang)),
);
export const { GET, POST, PATCH, DELETE, OPTIONS } = methodNotAllowed('PUT');
