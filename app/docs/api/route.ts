import { ApiReference } from '@scalar/nextjs-api-reference';
import { A11Y_PATCH, SCALAR_CSS, shellBar } from './shell';

// The renderer is served from our own origin, with the system's fonts: nothing loads from a vendor's server.
const reference = ApiReference({
  url: '/v1/openapi.json',
  cdn: '/docs/api/standalone.js',
  pageTitle: 'Référence de l’API · Paraphe',
  withDefaultFonts: false,
  // No request leaves through Scalar's proxy or telemetry: the page talks to this server only (CSP connect-src 'self').
  proxyUrl: '',
  telemetry: false,
  // Scalar's "Ask AI" agent searches its own registry on load: off.
  agent: { disabled: true },
  // A reference to read, in the back-office's light look: no API client, download menu, developer tools or theme switch
  // (the bar above links to the OpenAPI document itself).
  hideClientButton: true,
  hideTestRequestButton: true,
  documentDownloadType: 'none',
  showDeveloperTools: 'never',
  hideDarkModeToggle: true,
  forceDarkModeState: 'light',
  theme: 'none',
  customCss: SCALAR_CSS,
});

/** The page's two scripts carry this request's CSP nonce (proxy.ts), or the policy blocks them. */
export async function GET(req: Request) {
  // The reference itself is in English, like the API; the bar above it is French.
  const page = (await reference().text())
    .replace('<html>', '<html lang="en">')
    .replace(/<body>\s*/, `<body>\n${shellBar()}\n`)
    .replace('</body>', `<script>${A11Y_PATCH}</script>\n</body>`);
  const nonce = req.headers.get('x-nonce');
  const html = nonce ? page.replaceAll('<script', `<script nonce="${nonce}"`) : page;
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}
