import { appBaseUrl } from '@/lib/platform/config';
import { methodNotAllowed, ok, publicRoute } from '@/lib/platform/next';
import { buildOpenApiDocument } from '@/lib/platform/openapi';

export const GET = publicRoute(async () => ok(buildOpenApiDocument(appBaseUrl())));
export const { POST, PUT, PATCH, DELETE, OPTIONS } = methodNotAllowed('GET');
