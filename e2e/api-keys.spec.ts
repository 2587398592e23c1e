import { expect, test } from '@playwright/test';
import { rememberSecret, signIn } from './helpers';

test('sign in, create an API key, call /v1 with it, revoke it, see 401', async ({ page, request }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Clés API' }).click();
  await expect(page.getByRole('heading', { name: 'Clés API' })).toBeVisible();

  await page.getByLabel('Nom').fill('Journey key');
  await page.getByLabel('Lecture des événements').check();
  await page.getByRole('button', { name: 'Créer la clé' }).click();
  const value = page.getByTestId('new-key-value');
  await expect(value).toBeVisible();
  const key = (await value.textContent())!.trim();
  expect(key).toMatch(/^paraphe_pk_live_[0-9A-Za-z]{32}$/);
  rememberSecret(key);

  const ok = await request.get('/v1/events', { headers: { Authorization: `Bearer ${key}` } });
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toMatchObject({ data: expect.any(Array), meta: { next_cursor: null } });

  const row = page.getByTestId('key-row-Journey key');
  await expect(row.getByText('active')).toBeVisible();
  await row.getByRole('button', { name: 'Révoquer' }).click();
  await expect(row.getByText('révoquée')).toBeVisible();

  // The server process that revoked the key forgets it at once.
  const revoked = await request.get('/v1/events', { headers: { Authorization: `Bearer ${key}` } });
  expect(revoked.status()).toBe(401);
  expect(await revoked.json()).toMatchObject({ code: 'unauthorized' });
});

test('a wrong password is refused with a message, and pages need a session', async ({ page }) => {
  await page.goto('/settings/api-keys');
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('E-mail').fill('demo@paraphe.test');
  rememberSecret('not the password');
  await page.getByLabel('Mot de passe').fill('not the password');
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByText('E-mail ou mot de passe incorrect.')).toBeVisible();
});
