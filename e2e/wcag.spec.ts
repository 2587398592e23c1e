import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';
import { type Showcase, seedShowcase } from './showcase';
import { expectAccessible, sentEnvelope, signerLink, signerPage, staffApi, uploadDocument } from './signature-setup';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/**
 * Accessibility (issue 13): axe, WCAG 2.1 A and AA, on every back-office page. The file sorts after billing.spec.ts,
 * whose journey expects the org's first document numbers: the journeys share one database, in file order.
 *
 * One data set for the file (beforeAll: once per worker, the journeys run on one); every page is walked at both sizes at
 * once, one signed-in context per size.
 */
test.describe.configure({ timeout: 480_000 });
let page: Page;
let data: Showcase;
/** A draft envelope with two signers: its page shows the field placer, the approvers and the requested documents. */
let envelope: string;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  // A page of its own context: axe opens a second page in that context to assemble its results.
  page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await signIn(page);
  data = await seedShowcase(page);
  const draft = await staffApi(page).post('/v1/signature/envelopes', {
    source_kind: 'document',
    source_document_id: await uploadDocument(page, 'Contrat WCAG'),
    subject: 'Contrat à signer',
    signers: [
      { email: 'wcag.one@exemple.fr', full_name: 'Claire Dubois', routing_order: 1 },
      { email: 'wcag.two@exemple.fr', routing_order: 2 },
    ],
  });
  envelope = draft.id as string;
});
test.afterAll(() => page.context().close());

/**
 * Every WCAG 2.1 A/AA violation of what is on screen, one line per element, so the fix is obvious from the log. The
 * outbox's e-mail preview is left out: a sandboxed frame (no script runs there, axe included) holding the e-mail as
 * sent, not a page of the app.
 */
async function violations(page: Page, where: string) {
  // Tables that scroll on a phone take the focus once the page has hydrated (components/scroll-regions.tsx).
  await page.waitForFunction(() => [...document.querySelectorAll('main .table')].every((t) => t.scrollWidth <= t.clientWidth + 1 || t.hasAttribute('tabindex')));
  // Legacy mode: axe gathers its results in the page instead of a blank page opened for each check (about 1 s less a
  // page over ~50 pages a size); it only loses cross-origin frames, which the back-office has none of.
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).exclude('iframe[sandbox]').setLegacyMode(true).analyze();
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${where} · ${v.id} (${v.impact}) ${v.help}\n    ${n.target.join(' ')}\n    ${n.failureSummary?.replace(/\n/g, ' ')}`),
  );
}

const pages = (d: Showcase) => [
  '/',
  '/contacts',
  '/contacts/new',
  `/contacts/${d.contact}`,
  `/contacts/${d.contact}/edit`,
  '/contacts/import',
  '/contacts/duplicates',
  '/documents',
  '/documents/new?type=devis',
  '/documents/new?type=facture',
  `/documents/${d.quote}`,
  `/documents/${d.deposit}`,
  `/documents/${d.draft}`,
  `/documents/${d.draft}/edit`,
  `/documents/${d.finalized}`,
  `/documents/${d.invoice}`,
  `/documents/${d.creditNote}`,
  '/products',
  '/products/new',
  `/products/${d.product}/edit`,
  '/reminders',
  '/invoices/received',
  '/recurring',
  '/recurring/new',
  `/recurring/new?from=${d.finalized}`,
  `/recurring/${d.recurring}`,
  `/recurring/${d.recurring}/edit`,
  '/exports',
  '/settings/organisation',
  '/settings/invoicing',
  '/settings/einvoicing',
  '/settings/payments',
  '/settings/api-keys',
  '/settings/webhooks',
  '/signature',
  '/signature/new',
  '/signature/templates',
  `/signature/${envelope}`,
  '/signature/forms',
  '/signature/bulk',
  '/dev/mail',
  '/dev/sms',
];

/** The dialogs staff open most, each checked open. */
const dialogs = (d: Showcase): Array<[string, string, string]> => [
  [`/documents/${d.draft}`, 'Finaliser…', 'Finaliser le document'],
  [`/documents/${d.finalized}`, 'Envoyer par e-mail…', ''],
  [`/documents/${d.quote}`, 'Convertir en facture…', 'Convertir en facture'],
  [`/documents/${d.finalized}`, 'Établir un avoir…', 'Établir un avoir'],
];

async function walk(page: Page, size: string, openMenu: boolean) {
  const found: string[] = [];
  const check = async (path: string) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
    if (openMenu) {
      await page.getByText('Menu', { exact: true }).click();
      await expect(page.getByRole('navigation', { name: 'Activité' })).toBeVisible();
    }
    found.push(...(await violations(page, `${size} ${path}`)));
  };
  for (const path of pages(data)) await check(path);

  // One e-mail of the outbox, opened from its list.
  await page.goto('/dev/mail');
  await page.locator('main a[href^="/dev/mail/"]').first().click();
  await expect(page).toHaveURL(/\/dev\/mail\/.+/);
  await check(new URL(page.url()).pathname);

  for (const [path, button, name] of dialogs(data)) {
    await page.goto(path);
    await page.getByRole('button', { name: button }).click();
    const dialog = name ? page.getByRole('dialog', { name }) : page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    found.push(...(await violations(page, `${size} ${path} dialog ${button}`)));
  }

  // The API reference renders in the browser: checked once its operations are on screen. Scalar reads the whole
  // 1.4 MB document (examples and descriptions of 124 operations) before drawing: about 6 s in an idle Chromium here.
  await page.goto('/docs/api');
  await expect(page.getByRole('heading', { name: 'Paraphe API' }).first()).toBeVisible({ timeout: 30_000 });
  found.push(...(await violations(page, `${size} /docs/api`)));
  return found;
}

test('every page and the main dialogs have no WCAG 2.1 AA violation, at 1440 px and at 390 px with the menu open', async ({ browser }) => {
  // The two sizes walk side by side, each in a context of its own: the run is about half as long on two cores. Both
  // walks finish before the verdict, so a failure at one size still reports the other's violations.
  const phone = await (await browser.newContext({ viewport: PHONE })).newPage();
  await signIn(phone);
  const walks = await Promise.allSettled([walk(page, 'desktop', false), walk(phone, 'phone', true)]);
  await phone.context().close();
  const failed = walks.flatMap((w) => (w.status === 'rejected' ? [w.reason] : []));
  if (failed.length > 0) throw failed[0];
  const found = walks.flatMap((w) => (w.status === 'fulfilled' ? w.value : []));
  expect(found, found.join('\n')).toEqual([]);
});

test('signed out, the sign-in page has no WCAG 2.1 AA violation, on a desktop and on a phone', async ({ browser }) => {
  const fresh = await (await browser.newContext({ viewport: PHONE })).newPage();
  for (const size of [PHONE, DESKTOP]) {
    await fresh.setViewportSize(size);
    await fresh.goto('/login');
    await expect(fresh.getByRole('button', { name: 'Se connecter' })).toBeVisible();
    const { violations } = await new AxeBuilder({ page: fresh }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const found = violations.flatMap((v) => v.nodes.map((n) => `${size.width} /login · ${v.id} ${v.help} ${n.target.join(' ')}`));
    expect(found, found.join('\n')).toEqual([]);
  }
  await fresh.context().close();
});

test('the signer’s page /sign/<token> and its 404 have no WCAG 2.1 AA violation, on a phone and on a desktop', async ({ browser }) => {
  const sent = await sentEnvelope(page, await uploadDocument(page, 'Contrat signataire'), {
    subject: 'Contrat à signer',
    signers: [{ email: 'wcag.signer@exemple.fr', full_name: 'Claire Dubois' }],
  });
  const url = await signerLink(page, sent.id, sent.signers[0]!.id);
  for (const viewport of [PHONE, DESKTOP]) {
    const signer = await signerPage(browser, viewport === PHONE ? {} : { viewport });
    await signer.goto(url);
    await expect(signer.getByRole('img', { name: 'Page 2 sur 2' })).toBeVisible();
    await expectAccessible(signer, `${viewport.width} /sign/<token>`);
    await signer.goto(`/sign/${'x'.repeat(43)}`);
    await expectAccessible(signer, `${viewport.width} /sign/<unknown>`);
    await signer.context().close();
  }
});
