import { methodNotAllowed, ok, route } from '@/lib/platform/next';
import { emailSuggestionOperation, suggestEmail } from '@/lib/domain/signature';

export const POST = route(emailSuggestionOperation, async ({ body }) => ok(suggestEmail(body.email)));
export const { GET, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('POST');
