import { ApiReference } from '@scalar/nextjs-api-reference';

// The renderer is served from our own origin, with the system's fonts: nothing loads from a vendor's server.
const reference = ApiReference({
  url: '/v1/openapi.json',
  cdn: '/docs/api/standalone.js',
  pageTitle: 'Paraphe API reference',
  hideClientButton: true,
  withDefaultFonts: false,
  // No request leaves through Scalar's proxy or telemetry: the page talks to this server only (CSP connect-src 'self').
  proxyUrl: '',
  telemetry: false,
  // Scalar's "Ask AI" agent searches its own registry on load: off.
  agent: { disabled: true },
});

/** The page's two scripts carry this request's CSP nonce (proxy.ts), or the policy blocks them. */
export async function GET(req: Request) {
  const page = await reference().text();
  const nonce = req.headers.get('x-nonce');
  const html = nonce ? page.replaceAll('<script', `<script nonce="${nonce}"`) : page;
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}
