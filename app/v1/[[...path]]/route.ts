import { notFound } from '@/lib/platform/errors';
import { publicRoute } from '@/lib/platform/next';

// Unknown /v1 paths (/v1 itself included: the catch-all is optional) answer the API's JSON error, not the HTML 404 page.
const unknownPath = publicRoute(async (req) => {
  throw notFound(`Endpoint ${req.method} ${new URL(req.url).pathname}`);
});
export { unknownPath as GET, unknownPath as POST, unknownPath as PUT, unknownPath as PATCH, unknownPath as DELETE };
