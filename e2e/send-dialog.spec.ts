import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { apiAs, PHONE, phoneOverflow, signIn } from './helpers';

/**
 * Issue 35 item 6: one send dialog. The e2e org takes payments (connected to the fake Stripe), so « Joindre le lien de
 * paiement » is checked by default; the preview shows the e-mail with its pay link before anything leaves; sent, the
 * invoice has its payment link and the e-mail carries it. At 1440 and 390 px, axe clean.
 */
for (const [size, viewport] of [
  ['1440', { width: 1440, height: 900 }],
  ['390', { ...PHONE, isMobile: true }],
] as const) {
  test(`one send dialog: pay link checked by default, the preview shows it, sent with it — at ${size} px`, async ({ browser }) => {
    const { isMobile = false, ...screen } = viewport as typeof viewport & { isMobile?: boolean };
    const page = await (await browser.newContext({ viewport: screen, isMobile, hasTouch: isMobile })).newPage();
    await signIn(page);
    const api = apiAs(page);
    const contact = await api('/v1/contacts', { type: 'particulier', first_name: 'Lucie', last_name: `Envoi ${size}`, email: `lucie-${size}@envoi.test` });
    const invoice = await api('/v1/invoices', {
      type: 'facture',
      contact_id: contact.id,
      operation_nature: 'services',
      items: [{ description: 'Séance photo', quantity: '1', unit_price: 30000, vat_rate: '20' }],
    });
    const { number } = (await api(`/v1/invoices/${invoice.id}/finalize`, {})) as unknown as { number: string };

    await page.goto(`/documents/${invoice.id}`);
    // No second form: the online payment card keeps the link, the e-mail is the dialog's.
    await expect(page.getByRole('button', { name: 'Envoyer pour paiement…' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Envoyer par e-mail…' }).click();
    const dialog = page.getByRole('dialog', { name: `Envoyer la facture ${number}` });
    const payLink = dialog.getByLabel('Joindre le lien de paiement');
    await expect(payLink).toBeChecked();
    await dialog.getByLabel('Message').fill('Merci pour la séance.');
    await dialog.getByRole('button', { name: 'Aperçu de l’e-mail' }).click();
    const preview = dialog.getByRole('region', { name: 'Aperçu de l’e-mail' });
    await expect(preview).toContainText(`lucie-${size}@envoi.test`);
    await expect(preview).toContainText('Merci pour la séance.');
    await expect(preview).toContainText('/pay/');
    await expect(preview).toContainText('et le lien de paiement en ligne');
    if (isMobile) expect(await phoneOverflow(page)).toEqual({ by: 0, wider: [] });
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}`))).toEqual([]);

    // Unchecked, the preview is the plain e-mail; checked again, sent with the link.
    await payLink.uncheck();
    await dialog.getByRole('button', { name: 'Aperçu de l’e-mail' }).click();
    await expect(preview).not.toContainText('/pay/');
    await payLink.check();
    await dialog.getByRole('button', { name: 'Envoyer', exact: true }).click();
    await expect(page.getByText(/^Document envoyé avec le lien de paiement en ligne\./)).toBeVisible();
    await expect(page.getByTestId('document-status')).toHaveText('envoyée');
    // The link the e-mail carries is the invoice's, shown on its page.
    await expect(page.getByTestId('payment-link')).toHaveValue(/\/pay\/[\w-]{43}$/);
    const link = await page.getByTestId('payment-link').inputValue();
    await expect(page.getByRole('button', { name: 'Renvoyer par e-mail…' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Aperçu de l’e-mail' }).click();
    await expect(preview).toContainText(link);
  });
}
