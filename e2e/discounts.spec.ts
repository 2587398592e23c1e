import { expect, test } from '@playwright/test';
import { PHONE, phoneOverflow, signIn } from './helpers';
import { expectAccessible } from './signature-setup';

/** An amount as the pages print it (fr-FR: narrow no-break spaces), matched whatever the space character. */
const eur = (text: string) => new RegExp(`^\\s*${text.replace(/ /g, '\\s')}\\s€\\s*$`);

/**
 * Issue 35 item 15: a discount typed as a percentage of its VAT group's subtotal, its amount computed to the cent and
 * stored as the API's discount line, on a draft whose first lines the server rendered and to which the browser adds and
 * removes lines. (React warns of duplicate keys in development only, and this server is a production build: the keys'
 * uniqueness between server and browser is app/(backoffice)/documents/editor-discounts.test.ts's.)
 */
for (const [label, viewport] of [['1440 px', { width: 1440, height: 900 }], ['390 px', PHONE]] as const) {
  test(`a discount as a percentage of its VAT group, to the cent — at ${label}`, async ({ browser }) => {
    const page = await (await browser.newContext({ viewport })).newPage();
    await signIn(page);
    const contact = await page.request.post('/v1/contacts', { data: { type: 'professionnel', company: 'Atelier Lumière', siret: '73282932000074', city: 'Lyon' } });
    expect(contact.status()).toBe(201);
    const draft = await page.request.post('/v1/invoices', {
      data: {
        type: 'devis',
        contact_id: (await contact.json()).id,
        items: [
          { description: 'Conseil', quantity: '3', unit_price: 33_333, vat_rate: '20' },
          { description: 'Livre', quantity: '1', unit_price: 4_000, vat_rate: '5.5' },
        ],
      },
    });
    expect(draft.status()).toBe(201);
    const { id } = await draft.json();

    await page.goto(`/documents/${id}/edit`);
    await expect(page.getByLabel('Désignation de la ligne 2')).toHaveValue('Livre');
    await page.getByRole('button', { name: 'Ajouter une remise' }).click();
    await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
    await page.getByRole('button', { name: 'Ajouter une remise' }).click();
    await page.getByLabel('Supprimer la ligne 5').click();
    await page.getByLabel('Supprimer la ligne 4').click();

    // 12,5 % of the 20 % group's 999,99 € = 124,99875 € → 125,00 € (rounded half up once); the 5,5 % line is not in it.
    await page.getByLabel('Taux de TVA de la ligne 3').selectOption('20.00');
    await page.getByLabel('Pourcentage de la remise de la ligne 3').fill('12,5');
    await expect(page.getByLabel('Montant de la remise de la ligne 3')).toHaveValue('125');
    await expect(page.getByTestId('line-2-total')).toHaveText(eur('-125,00'));
    await expect(page.getByTestId('editor-total-ht')).toHaveText(eur('914,99'));
    await expect(page.getByTestId('editor-total-tva')).toHaveText(eur('177,20'));
    await expect(page.getByTestId('editor-total-ttc')).toHaveText(eur('1 092,19'));
    if (viewport === PHONE) expect((await phoneOverflow(page)).by).toBeLessThanOrEqual(0);
    await expectAccessible(page, `${label} the editor with a percentage discount`);

    await page.getByRole('button', { name: 'Enregistrer le brouillon' }).click();
    await expect(page).toHaveURL(new RegExp(`/documents/${id}$`));
    const stored = await (await page.request.get(`/v1/invoices/${id}`)).json();
    expect(stored.items.map((i: { kind: string; quantity: string; unit_price: number }) => [i.kind, i.quantity, i.unit_price])).toEqual([
      ['product', '3', 33_333],
      ['product', '1', 4_000],
      ['discount', '-1', 12_500],
    ]);
    expect([stored.total_ht, stored.total_tva, stored.total_ttc]).toEqual([91_499, 17_720, 109_219]);
    await page.context().close();
  });
}
