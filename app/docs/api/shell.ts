/**
 * The API reference inside the back-office: a bar with the app's name, a way back and the OpenAPI document, above
 * Scalar's page; Scalar's colours are the back-office's (app/globals.css), dark enough for WCAG AA contrast.
 */
export function shellBar() {
  return `<header class="paraphe-bar" lang="fr">
  <a class="paraphe-brand" href="/">Paraphe</a>
  <span class="paraphe-title">Référence de l’API</span>
  <nav aria-label="Référence de l’API">
    <a href="/">← Retour au back-office</a>
    <a class="paraphe-openapi" href="/v1/openapi.json">Document OpenAPI (JSON)</a>
  </nav>
</header>`;
}

/**
 * What Scalar's markup misses for WCAG 2.1 AA, added once it renders (and again when it re-renders): names for its
 * icon buttons, no aria-selected on plain buttons (the current one gets aria-current), visible text in the names
 * of "Show more", keyboard access to the scrolling endpoint lists. Scalar has no option for these.
 */
export const A11Y_PATCH = `(() => {
  const fix = () => {
    for (const b of document.querySelectorAll('button[aria-selected]')) {
      if (b.getAttribute('aria-selected') === 'true') b.setAttribute('aria-current', 'page');
      else b.removeAttribute('aria-current');
      b.removeAttribute('aria-selected');
    }
    for (const b of document.querySelectorAll('button[role="search"]:not([aria-label])')) b.setAttribute('aria-label', 'Rechercher');
    for (const b of document.querySelectorAll('button.scalar-code-copy:not([aria-label])')) b.setAttribute('aria-label', 'Copier');
    for (const b of document.querySelectorAll('button.show-more[aria-label]')) b.removeAttribute('aria-label');
    for (const l of document.querySelectorAll('ul.endpoints:not([tabindex])')) l.setAttribute('tabindex', '0');
  };
  fix();
  new MutationObserver(fix).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-selected', 'aria-label'] });
})();`;

export const SCALAR_CSS = `
:root { --scalar-custom-header-height: 52px; }
body { margin: 0; }
.paraphe-bar {
  position: sticky; top: 0; z-index: 100; height: 52px; box-sizing: border-box; display: flex; align-items: center; gap: 16px;
  padding: 0 20px; background: #111827; color: #e5e7eb; overflow-x: auto; white-space: nowrap;
  font: 14px/1.5 ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
.paraphe-bar a { color: #e5e7eb; text-decoration: none; }
.paraphe-bar a:hover { color: #fff; text-decoration: underline; }
.paraphe-bar a:focus-visible { outline: 2px solid #c7d0ff; outline-offset: 2px; }
.paraphe-bar .paraphe-brand { color: #fff; font-weight: 700; font-size: 18px; }
/* The vendor's credit link and the language picker of the introduction: not what staff come for. */
a[href*="scalar.com"], .scalar-reference-intro-clients { display: none !important; }
.paraphe-bar nav { margin-left: auto; display: flex; gap: 16px; }
@media (max-width: 860px) { .paraphe-bar .paraphe-title, .paraphe-bar .paraphe-openapi { display: none; } .paraphe-bar { gap: 12px; padding: 0 16px; } }
.light-mode, .light-mode .scalar-app, .scalar-app {
  --scalar-font: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --scalar-color-1: #1d2433;
  --scalar-color-2: #414b5e;
  --scalar-color-3: #545f73;
  --scalar-color-accent: #3b4fd8;
  --scalar-background-1: #ffffff;
  --scalar-background-2: #f6f7f9;
  --scalar-background-3: #eef0f3;
  --scalar-background-accent: #eef0ff;
  --scalar-border-color: #e4e7ec;
  --scalar-color-green: #1f7a4d;
  --scalar-color-red: #a8281e;
  --scalar-color-yellow: #8a4f06;
  --scalar-color-blue: #2f43c4;
  --scalar-color-orange: #a1470d;
  --scalar-color-purple: #6d3fc0;
}
/* Scalar draws some code samples dark whatever the mode: their method colours, light enough on #1a1a1a. */
.dark-mode {
  --scalar-color-green: #5fd08f;
  --scalar-color-red: #ff7b72;
  --scalar-color-yellow: #e3b341;
  --scalar-color-blue: #79a8ff;
  --scalar-color-orange: #ffa657;
  --scalar-color-purple: #d2a8ff;
}
`;
