import { appBaseUrl } from '@/lib/config';
import { ok, publicRoute } from '@/lib/http/handler';
import { buildOpenApiDocument } from '@/lib/openapi/document';

export const GET = publicRoute(async () => ok(buildOpenApiDocument(appBaseUrl())));
