import type { Language } from '@/lib/platform/format';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface Message {
  lang: Language;
  title: string;
  text: string;
  /** A link back to the invoice's page, when there is one. */
  back?: { href: string; label: string };
}

/**
 * A short HTML answer of the payer's routes (checkout, PDF) when they cannot do what was asked: a browser shows it
 * as a page. Self-contained (a route handler gets no layout); the proxy adds the security and no-store headers.
 */
export function messagePage(status: number, messages: Message[], headers: Record<string, string> = {}): Response {
  const sections = messages
    .map(
      (m, i) =>
        `<section lang="${m.lang}"><${i ? 'h2' : 'h1'}>${escapeHtml(m.title)}</${i ? 'h2' : 'h1'}><p>${escapeHtml(m.text)}</p>${
          m.back ? `<p><a href="${escapeHtml(m.back.href)}">${escapeHtml(m.back.label)}</a></p>` : ''
        }</section>`,
    )
    .join('');
  const html = `<!DOCTYPE html><html lang="${messages[0]?.lang ?? 'fr'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(messages[0]?.title ?? '')}</title><style>body{font-family:system-ui,sans-serif;color:#1d2433;background:#f6f7f9;margin:0;padding:16px;line-height:1.5}main{max-width:640px;margin:0 auto}section{background:#fff;border:1px solid #e4e7ec;border-radius:8px;padding:16px 20px;margin-bottom:16px}h1,h2{font-size:20px;margin:0 0 8px}a{color:#3b4fd8}</style></head><body><main>${sections}</main></body></html>`;
  return new Response(html, { status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...headers } });
}
