import { expect, test } from '@playwright/test';
import { rememberSecret, signIn } from './helpers';
import { newestMail } from './signature-setup';

/*
 * Issue 35 item 17: an admin invites a comptable by e-mail; the comptable accepts (without JavaScript), signs in,
 * sees the documents and the exports, finds no button that changes anything, and a write is refused.
 */
test('invite a comptable, who accepts, signs in, reads and downloads, and changes nothing', async ({ page, browser }) => {
  const email = `comptable-${Date.now()}@example.fr`;
  const password = 'comptable-password-42';
  rememberSecret(password);

  await signIn(page);
  await page.goto('/settings/team');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Rôle').selectOption('accountant');
  await page.getByRole('button', { name: 'Inviter' }).click();
  await expect(page.getByText(`Invitation envoyée à ${email}.`)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Invitations en attente' }).getByText(email)).toBeVisible();

  const text = await newestMail(page, email, /vous invite/);
  const link = /https?:\/\/\S+\/invitation\/[A-Za-z0-9_-]{43}/.exec(text)?.[0];
  expect(link, `an /invitation link in:\n${text}`).toBeTruthy();
  rememberSecret(link!.split('/invitation/')[1]!);

  // The comptable: another browser, no JavaScript for the acceptance.
  const noScript = await browser.newContext({ javaScriptEnabled: false, locale: 'fr-FR' });
  const invited = await noScript.newPage();
  const res = await invited.goto(new URL(link!).pathname);
  expect(res?.headers()['referrer-policy']).toBe('no-referrer');
  await expect(invited.getByRole('heading', { level: 1 })).toContainText('Rejoindre');
  await invited.getByLabel('Mot de passe', { exact: true }).fill(password);
  await invited.getByLabel('Mot de passe, à nouveau').fill(password);
  await invited.getByRole('button', { name: 'Accepter l’invitation' }).click();
  await expect(invited).toHaveURL(/\/login/);
  // Used once: the link no longer works.
  await invited.goto(new URL(link!).pathname);
  await expect(invited.getByRole('heading', { level: 1 })).toHaveText('Invitation indisponible');
  await noScript.close();

  const context = await browser.newContext({ locale: 'fr-FR' });
  const comptable = await context.newPage();
  await comptable.goto('/login');
  await comptable.getByLabel('E-mail').fill(email);
  await comptable.getByLabel('Mot de passe').fill(password);
  await comptable.getByRole('button', { name: 'Se connecter' }).click();
  await expect(comptable.getByTestId('read-only-notice')).toBeVisible();

  // Documents: listed, no creation button.
  await comptable.goto('/documents');
  await expect(comptable.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(comptable.getByRole('link', { name: /Nouvelle facture|Nouveau devis/ })).toHaveCount(0);

  // Exports: the presets, the downloads; the accounts shown but not editable.
  await comptable.goto('/exports');
  await comptable.getByRole('link', { name: 'Trimestre dernier' }).click();
  await expect(comptable.getByRole('link', { name: 'Trimestre dernier' })).toHaveAttribute('aria-current', 'true');
  await expect(comptable.getByRole('link', { name: 'Écritures comptables (FEC)' })).toBeVisible();
  await expect(comptable.getByRole('button', { name: 'Enregistrer les comptes' })).toHaveCount(0);
  const csv = await comptable.request.get(`/exports/paiements.csv${new URL(comptable.url()).search}`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-disposition']).toMatch(/^attachment; filename="paiements-/);

  // Settings → Équipe: no invitation form for the comptable; its menu leaves out the settings it cannot change.
  await comptable.goto('/settings/team');
  const settingsNav = comptable.getByRole('navigation', { name: 'Réglages' });
  await expect(settingsNav.getByRole('link', { name: 'Équipe' })).toBeVisible();
  await expect(settingsNav.getByRole('link', { name: 'Clés API' })).toHaveCount(0);
  await expect(settingsNav.getByRole('link', { name: 'Facturation', exact: true })).toHaveCount(0);
  await expect(comptable.getByRole('button', { name: 'Inviter' })).toHaveCount(0);

  // A write with the comptable's session is refused: 403 {code, message}.
  const write = await comptable.request.post('/v1/contacts', { data: { company: 'Pas le droit SARL' }, headers: { Origin: new URL(comptable.url()).origin } });
  expect(write.status()).toBe(403);
  expect(await write.json()).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/read-only/) });
  const read = await comptable.request.get('/v1/invoices');
  expect(read.status()).toBe(200);
  await context.close();
});
