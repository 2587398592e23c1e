import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { apiAs, PHONE, phoneOverflow, signIn } from './helpers';

/*
 * Issue 35, item 10: on a phone a list's rows are cards and its filters fold behind « Filtres (n) », so that the first
 * row is in the first screen even with seven filters in force; at 1440 px the same list is the table it was, its
 * filters open.
 */

const DESKTOP = { width: 1440, height: 900 };

async function axeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Two finalized invoices of one client, and the documents list filtered seven ways down to them. */
async function seed(page: Page) {
  const api = apiAs(page);
  const contact = await api('/v1/contacts', { type: 'professionnel', company: 'Cartes Mobiles SARL', email: 'compta@cartes-mobiles.test', siret: '73282932000074' });
  for (const cents of [42_000, 18_000]) {
    const draft = await api('/v1/invoices', {
      type: 'facture',
      contact_id: contact.id,
      operation_nature: 'services',
      items: [{ description: 'Atelier', quantity: '1', unit_price: cents, vat_rate: '20' }],
    });
    await api(`/v1/invoices/${draft.id}/finalize`, {});
  }
  const filters = new URLSearchParams({
    q: 'Cartes Mobiles',
    type: 'facture',
    status: 'finalized',
    contact_id: contact.id,
    issue_date_from: '2020-01-01',
    issue_date_to: '2099-12-31',
    outstanding: 'true',
  });
  return `/documents?${filters}`;
}

test.describe('on a phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

  test('the documents list: its filters fold behind « Filtres (7) », its rows are cards, the first one in the first screen', async ({ page }) => {
    await signIn(page);
    const url = await seed(page);
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1, name: 'Devis & factures' })).toBeVisible();

    // Folded: the summary says how many filters are in force; the fields and the chips wait behind it.
    const fold = page.locator('search details');
    const summary = fold.locator('summary');
    await expect(summary).toBeVisible();
    await expect(summary).toHaveText('Filtres (7 actifs)');
    await expect(page.getByRole('searchbox', { name: 'Rechercher' })).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Filtrer par statut' })).toBeHidden();

    // The first row is a card entirely within the first screen (390 × 844), before any scroll.
    const list = page.getByRole('table', { name: 'Documents' });
    const rows = list.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    const first = rows.first();
    const box = await first.boundingBox();
    expect(box, 'the first row has a box').not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height);
    expect(box!.width).toBeLessThanOrEqual(PHONE.width);
    // A card: number (the link), client, type, status chip, amount, date — each on screen, none sideways.
    await expect(first.getByRole('link', { name: /^FAC-/ })).toBeVisible();
    await expect(first.getByRole('link', { name: 'Cartes Mobiles SARL' })).toBeVisible();
    await expect(first.getByRole('cell', { name: /Facture/ }).first()).toBeVisible();
    await expect(first.locator('.chip', { hasText: 'finalisé' })).toBeVisible();
    const amount = first.locator('[data-card="figure"]');
    await expect(amount).toBeVisible();
    await expect(amount).toHaveText(/^(504,00|216,00)\s€$/);
    // Its label is the column's header, printed before it on the card (CSS content: not in the text).
    await expect(amount).toHaveAttribute('data-label', 'Total TTC');
    await expect(first.locator('td[data-label="Émis le"]')).toBeVisible();
    // The amounts HT and TVA are the document's detail, left off the card.
    await expect(first.locator('td[data-label="Total HT"]')).toBeHidden();
    // Nothing scrolls sideways, not even the table inside itself.
    expect(await phoneOverflow(page)).toEqual({ by: 0, wider: [] });
    expect(await list.evaluate((t) => t.scrollWidth - t.clientWidth)).toBeLessThanOrEqual(1);
    await axeClean(page);

    // Opened (no JavaScript needed: a <details>), the fields show what is filtered and still filter.
    await summary.click();
    const search = page.getByRole('searchbox', { name: 'Rechercher' });
    await expect(search).toBeVisible();
    await expect(search).toHaveValue('Cartes Mobiles');
    await expect(page.getByRole('navigation', { name: 'Filtrer par statut' })).toBeVisible();
    expect(await phoneOverflow(page)).toEqual({ by: 0, wider: [] });
    await axeClean(page);
    await page.getByRole('link', { name: 'Effacer les filtres' }).click();
    await expect(page).toHaveURL(/\/documents$/);
    await expect(page.locator('search details summary')).toHaveText('Filtres');
  });

  test('every list is cards on a phone: its first row in the first screen, nothing sideways', async ({ page }) => {
    await signIn(page);
    const api = apiAs(page);
    await api('/v1/products', { name: 'Forfait carte', unit_price_cents: 9_000, vat_rate: '20', unit: 'forfait' });
    await api('/v1/contacts', { type: 'particulier', first_name: 'Lina', last_name: 'Carte', email: 'lina.carte@exemple.fr' });
    for (const [path, name] of [
      ['/contacts', 'Contacts'],
      ['/products', 'Produits'],
    ] as const) {
      await page.goto(path);
      const table = page.getByRole('table', { name });
      const box = await table.locator('tbody tr').first().boundingBox();
      expect(box, path).not.toBeNull();
      expect(box!.y + box!.height, `${path}: the first row is below the first screen`).toBeLessThanOrEqual(PHONE.height);
      expect(await table.evaluate((t) => getComputedStyle(t.querySelector('tbody tr')!).display), path).toBe('grid');
      expect(await phoneOverflow(page), path).toEqual({ by: 0, wider: [] });
      await axeClean(page);
    }
  });
});

test('at 1440 px the documents list is a table and its filters are open, without a « Filtres » summary', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page);
  await page.goto((await seed(page)).replace(/&status=[^&]+/, ''));
  await expect(page.locator('search details summary')).toBeHidden();
  await expect(page.getByRole('searchbox', { name: 'Rechercher' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Filtrer par statut' })).toBeVisible();
  const list = page.getByRole('table', { name: 'Documents' });
  await expect(list.getByRole('columnheader', { name: /^Total HT/ })).toBeVisible();
  expect(await list.evaluate((t) => getComputedStyle(t.querySelector('tbody tr')!).display)).toBe('table-row');
  await axeClean(page);
});
