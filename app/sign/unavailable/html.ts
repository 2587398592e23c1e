import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Language } from '@/lib/platform/format';
import { FORM_TEXTS } from '../forms/[slug]/texts';
import { SIGN_TEXTS } from '../[token]/texts';

/**
 * The HTML of a signing link or form that does not answer (unknown 404, dead 410), written here because a page of the
 * App Router cannot answer 410 (proxy.ts rewrites such requests to ./route.ts). The same content and look as the pages
 * themselves: the signer page's « Lien expiré » end page, the form's « Formulaire introuvable »; no script at all.
 */
export type Unavailable = {
  page: 'link' | 'form';
  status: 404 | 410;
  lang: Language;
  /** Why a link no longer works, as proxy.ts read it (signer-outcome.ts's kind; `declined_other`: another signer declined). */
  outcome?: string | null;
};

/** The signer page's end for why a link died (as endOfOutcome, ../[token]/done.tsx); « Lien expiré » otherwise. */
const LINK_ENDS: Record<string, 'declined' | 'othersDeclined' | 'cancelled' | 'envelopeExpired'> = {
  declined: 'declined',
  declined_other: 'othersDeclined',
  cancelled: 'cancelled',
  expired: 'envelopeExpired',
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

let styles: string | undefined;
/** The stylesheets the pages import (the root layout's, the payer's, the signer's), inlined: no build asset to name. */
function pageStyles(): string {
  styles ??= ['app/globals.css', 'app/pay/pay.css', 'app/sign/sign.css'].map((file) => readFileSync(path.join(process.cwd(), file), 'utf8')).join('\n');
  return styles;
}

function body({ page, lang, outcome }: Unavailable): { title: string; main: string } {
  if (page === 'form') {
    const t = FORM_TEXTS[lang];
    return {
      title: t.pageTitle,
      main: `<main class="pay-page" lang="${t.htmlLang}"><section class="card"><h1>${escapeHtml(t.notFoundTitle)}</h1><p>${escapeHtml(t.notFoundText)}</p></section></main>`,
    };
  }
  const t = SIGN_TEXTS[lang];
  const end = (outcome && Object.hasOwn(LINK_ENDS, outcome) ? LINK_ENDS[outcome] : undefined) ?? 'expired';
  const { title, text } = t.end[end];
  const tone = end === 'declined' ? '' : ' notice-warning';
  const nav = `<nav class="pay-lang" aria-label="${escapeHtml(t.languageNav)}"><a href="?lang=${t.switchTo.href}" hreflang="${t.switchTo.href}" lang="${t.switchTo.href}">${escapeHtml(t.switchTo.label)}</a></nav>`;
  return {
    title: t.pageTitle,
    main: `<main class="pay-page sign-page-main" lang="${t.htmlLang}">${nav}<section class="card sign-end${tone}" aria-labelledby="sign-end-title"><h1 id="sign-end-title" tabindex="-1">${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></section></main>`,
  };
}

export function unavailableHtml(u: Unavailable): string {
  const { title, main } = body(u);
  return [
    '<!DOCTYPE html>',
    `<html lang="${u.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(title)}</title><meta name="robots" content="noindex, nofollow"><meta name="referrer" content="no-referrer">`,
    `<style>${pageStyles()}</style></head>`,
    `<body>${main}</body></html>`,
  ].join('');
}
