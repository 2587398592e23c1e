import { ApiReference } from '@scalar/nextjs-api-reference';

// The renderer is served from our own origin: no CDN, works offline.
export const GET = ApiReference({
  url: '/v1/openapi.json',
  cdn: '/docs/api/standalone.js',
  pageTitle: 'Paraphe API reference',
  hideClientButton: true,
});
