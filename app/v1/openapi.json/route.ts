import { appBaseUrl } from '@/lib/config';
import { methodNotAllowed, ok, publicRoute } from '@/lib/http/handler';
import { buildOpenApiDocument } from '@/lib/openapi/document';

export const GET = publicRoute(async () => ok(buildOpenApiDocument(appBaseUrl())));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
