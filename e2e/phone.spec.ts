import { expect, test } from '@playwright/test';
import { apiAs, PHONE, phoneOverflow, signIn } from './helpers';

test.use({ viewport: PHONE, isMobile: true, hasTouch: true });

test('on a phone every back-office page fits the screen, and the navigation folds under "Menu"', async ({ page }) => {
  await signIn(page);
  const api = apiAs(page);
  const contact = await api('/v1/contacts', {
    type: 'professionnel',
    company: 'Menuiserie Ébéniste Associés du Grand Ouest',
    email: 'compta@menuiserie-ebeniste-grand-ouest.test',
    siret: '73282932000074',
    city: 'Nantes',
  });
  const item = (description: string, vat_rate: string) => ({ description, quantity: '3', unit_price: 123456, vat_rate });
  const invoice = await api('/v1/invoices', {
    type: 'facture',
    contact_id: contact.id,
    operation_nature: 'services',
    items: [item('Pose d’un escalier hélicoïdal en chêne massif, finition huilée', '20'), item('Livraison', '10')],
  });
  const product = await api('/v1/products', { name: 'Escalier hélicoïdal', unit_price_cents: 123456, vat_rate: '20' });
  // A finalized invoice shows its online payment, with its payment link (the e2e org is connected to the fake Stripe).
  const issued = await api('/v1/invoices', { type: 'facture', contact_id: contact.id, operation_nature: 'services', items: [item('Escalier', '20')] });
  await api(`/v1/invoices/${issued.id}/finalize`, {});
  await api(`/v1/invoices/${issued.id}/payment-link`, {});

  // The menu: folded, then open, then folded again once a link is followed.
  const activity = page.getByRole('navigation', { name: 'Activité' });
  await expect(activity).toBeHidden();
  await page.getByText('Menu', { exact: true }).click();
  await expect(activity).toBeVisible();
  await activity.getByRole('link', { name: 'Contacts' }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await expect(activity).toBeHidden();

  for (const path of [
    '/',
    '/contacts',
    '/contacts/new',
    `/contacts/${contact.id}`,
    `/contacts/${contact.id}/edit`,
    '/contacts/import',
    '/contacts/duplicates',
    '/documents',
    '/documents/new?type=facture',
    `/documents/${invoice.id}`,
    `/documents/${invoice.id}/edit`,
    '/products',
    '/products/new',
    `/products/${product.id}/edit`,
    '/reminders',
    '/settings/organisation',
    '/settings/invoicing',
    '/settings/payments',
    '/settings/api-keys',
  ]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
    expect(await phoneOverflow(page), `${path} is wider than the phone`).toEqual({ by: 0, wider: [] });
  }

  // A finalized invoice's online payment: its link shown again in a read-only field with its copy button, and the
  // card fits the phone, the send dialog open too. Settings → Paiements says the fake account's readiness in words.
  const sticksOut = () =>
    page.evaluate(
      (width) =>
        [...document.querySelectorAll('section[aria-label="Paiement en ligne"] *')]
          .filter((el) => el.getBoundingClientRect().right > width + 1)
          .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
      PHONE.width,
    );
  await page.goto(`/documents/${issued.id}`);
  await expect(page.getByTestId('payment-link')).toHaveValue(/\/pay\/[\w-]{43}$/);
  await expect(page.getByRole('button', { name: 'Copier' })).toBeVisible();
  expect(await sticksOut()).toEqual([]);
  // The one send dialog, its pay link checked (the org takes payments), fits the phone too.
  await page.getByRole('button', { name: 'Envoyer par e-mail…' }).click();
  await expect(page.getByRole('dialog').getByLabel('Joindre le lien de paiement')).toBeChecked();
  expect(await sticksOut()).toEqual([]);
  expect((await phoneOverflow(page)).by).toBeLessThanOrEqual(0);
  await page.goto('/settings/payments');
  await expect(page.getByTestId('charges-enabled')).toHaveText('autorisés');
});

test('the sign-in page fits a phone', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  expect(await phoneOverflow(page)).toEqual({ by: 0, wider: [] });
});
