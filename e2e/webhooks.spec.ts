import { expect, type Page, test } from '@playwright/test';
import { rememberSecret, signIn } from './helpers';

const PHONE = { width: 390, height: 844 };

/** How far the page is wider than the phone (0: nothing sticks out sideways), and what sticks out. */
const overflow = (page: Page) =>
  page.evaluate((width) => {
    const wider = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
      .slice(0, 5);
    return { by: Math.max(0, document.documentElement.scrollWidth - width), wider };
  }, PHONE.width);

test('Réglages → Webhooks: create with the event picker, secret shown once, test event in the log; fits a phone', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page);
  await page.goto('/settings/webhooks');
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();

  // A public address literal: no DNS needed, and nothing listens there for this run.
  await page.getByLabel('URL de réception').fill('https://93.184.215.14/paraphe/hooks/with/a/rather/long/path/to/check/wrapping');
  await page.getByLabel('Facture payée').check();
  await page.getByLabel('Paiement enregistré').check();
  await page.getByRole('button', { name: 'Créer le webhook' }).click();
  const secret = page.getByTestId('webhook-secret-value');
  await expect(secret).toBeVisible();
  const value = (await secret.textContent())!.trim();
  expect(value).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  rememberSecret(value);
  const card = page.getByTestId('webhook-endpoint').first();
  await expect(card.getByText('Facture payée, Paiement enregistré')).toBeVisible();
  await expect(card.getByText('actif')).toBeVisible();
  expect(await overflow(page)).toEqual({ by: 0, wider: [] });

  // A private address is refused beside the field, in French.
  await page.getByLabel('URL de réception').fill('https://10.0.0.1/hook');
  await page.getByLabel('Tous les événements (y compris ceux ajoutés plus tard)').check();
  await page.getByRole('button', { name: 'Créer le webhook' }).click();
  await expect(page.getByText('Cette adresse mène à un réseau privé ou réservé : indiquez une adresse publique.')).toBeVisible();

  await card.getByRole('button', { name: 'Envoyer un test' }).click();
  await expect(card.getByText(/Événement de test envoyé/)).toBeVisible();
  await card.getByRole('link', { name: 'Journal des envois' }).click();
  await expect(page.getByRole('heading', { name: 'Journal des envois' })).toBeVisible();
  const delivery = page.getByTestId('webhook-delivery').first();
  await expect(delivery.getByText('Événement de test')).toBeVisible();
  await delivery.getByText(/Contenu envoyé/).click();
  await expect(delivery.getByText('"type": "webhook.test"')).toBeVisible();
  expect(await overflow(page)).toEqual({ by: 0, wider: [] });

  await page.getByRole('link', { name: 'Retour aux webhooks' }).click();
  await card.getByRole('button', { name: 'Désactiver' }).click();
  await expect(card.getByText('désactivé')).toBeVisible();
});
