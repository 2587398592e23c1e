import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from './signing';

export { DeclineBody, FieldValueBody, SignBody, UploadBody, VerifyCodeBody } from './signing';

/** The rate-limit bucket of the signer's API (per client address, lib/platform/next/handler publicApiRoute). */
export const SIGN_LIMIT_PREFIX = 'sign_api';
export const SignerParams = z.object({ token: z.string().min(1).max(100) });
export const SignerFieldParams = z.object({ token: z.string().min(1).max(100), field_id: z.uuid() });
/** `?lang=en`: the consent text in English (the page is bilingual); French otherwise. */
export const SignerQuery = z.object({ lang: z.enum(['fr', 'en']).catch('fr').default('fr') });
/** The upload and the multipart envelope around it. */
export const MAX_UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;
