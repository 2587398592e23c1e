import { appBaseUrl } from '@/lib/platform/config';
import { methodNotAllowed, ok, publicRoute } from '@/lib/platform/http/handler';
import { buildOpenApiDocument } from '@/lib/platform/openapi/document';

export const GET = publicRoute(async () => ok(buildOpenApiDocument(appBaseUrl())));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
