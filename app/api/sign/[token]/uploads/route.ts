import { methodNotAllowed, ok, publicApiRoute } from '@/lib/platform/next';
import { MAX_UPLOAD_BODY_BYTES, SIGN_LIMIT_PREFIX, SignerParams, SignerQuery, UploadBody, uploadSignerDocument } from '@/lib/domain/signature';

/** A requested document (multipart `requested_document_id`, `file`: PDF, PNG or JPEG, ≤ 10 MB). */
export const POST = publicApiRoute(
  { limitPrefix: SIGN_LIMIT_PREFIX, params: SignerParams, query: SignerQuery, body: UploadBody, bodyMediaType: 'multipart/form-data', maxBodyBytes: MAX_UPLOAD_BODY_BYTES },
  async ({ db, params, query, body, ip, userAgent }) => ok(await uploadSignerDocument(db, params.token, body.requested_document_id, body.file, { ip, userAgent }, query.lang)),
);
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
