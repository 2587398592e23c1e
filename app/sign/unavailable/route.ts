import { payLanguage } from '@/lib/domain/payments';
import { unavailableHtml } from './html';

/**
 * The answer of a signing link or form that does not work, with its status: proxy.ts rewrites `GET /sign/<token>`
 * (dead: 410) and `GET /sign/forms/<slug>` (unknown: 404, deleted: 410) here, the address bar unchanged. A request
 * straight to this path names no page: 404.
 */
export function GET(req: Request) {
  // proxy.ts passes them in its header (a rewrite's query is lost on the way); the query serves direct calls.
  const passed = req.headers.get('x-paraphe-sign-unavailable');
  const query = passed ? new URLSearchParams(passed) : new URL(req.url).searchParams;
  const page = query.get('page');
  const status = Number(query.get('status'));
  if ((page !== 'link' && page !== 'form') || (status !== 404 && status !== 410)) return new Response('Not found', { status: 404 });
  const lang = payLanguage(query.get('lang'), req.headers.get('accept-language'));
  return new Response(unavailableHtml({ page, status, lang, outcome: query.get('outcome') }), {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Language': lang },
  });
}

export const HEAD = GET;
