import { expect, type Page, test } from '@playwright/test';
import { DEMO } from './helpers';

/** Every request the page makes, to check that no URL ever carries the password. */
function recordUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(`${request.method()} ${request.url()}`));
  return urls;
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the login form posts to next-auth and lands on the back-office; the password never reaches a URL', async ({ page }) => {
    const urls = recordUrls(page);
    await page.goto('/settings/api-keys');
    await expect(page).toHaveURL(/\/login/);
    await page.getByLabel('E-mail').fill(DEMO.email);
    await page.getByLabel('Mot de passe').fill(DEMO.password);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Bonjour');
    expect(urls).toContainEqual(expect.stringMatching(/^POST http:\/\/[^/]+\/api\/auth\/callback\/credentials$/));
    for (const url of urls) {
      expect(url).not.toContain(encodeURIComponent(DEMO.password));
      expect(url).not.toContain('password=');
    }

    // The other form that shows a secret posts too, and works without JavaScript.
    await page.getByRole('link', { name: 'Clés API' }).click();
    await page.getByLabel('Nom').fill('No-JS key');
    await page.getByLabel('Lecture des événements').check();
    await page.getByRole('button', { name: 'Créer la clé' }).click();
    await expect(page.getByTestId('new-key-value')).toHaveText(/^\s*paraphe_pk_live_[0-9A-Za-z]{32}\s*$/);
    const key = (await page.getByTestId('new-key-value').textContent())!.trim();
    for (const url of urls) expect(url).not.toContain(key);
  });

  test('a wrong password comes back to the login page with its message', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(DEMO.email);
    await page.getByLabel('Mot de passe').fill('not the password');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL(/\/login\?.*error=CredentialsSignin/);
    await expect(page.getByText('E-mail ou mot de passe incorrect.')).toBeVisible();
  });
});

test.describe('throttled sign-in', () => {
  // Its own address (Next.js keeps a client's X-Forwarded-For), so that these failures do not slow the other journeys.
  test('tells to wait, then that the account is locked, with and without JavaScript', async ({ browser }) => {
    const email = `nobody-${Date.now()}@paraphe.test`;
    const noJs = await browser.newPage({ javaScriptEnabled: false, extraHTTPHeaders: { 'X-Forwarded-For': '198.51.100.23' } });
    const throttled = /Trop de tentatives de connexion\. Réessayez dans \d+ s\.|Compte temporairement verrouillé/;
    let message = '';
    for (let attempt = 0; attempt < 12 && !throttled.test(message); attempt++) {
      await noJs.goto('/login');
      await noJs.getByLabel('E-mail').fill(email);
      await noJs.getByLabel('Mot de passe').fill(`guess ${attempt}`);
      await noJs.getByRole('button', { name: 'Se connecter' }).click();
      await expect(noJs).toHaveURL(/\/login\?.*error=/);
      message = (await noJs.locator('.form-error').textContent()) ?? '';
    }
    expect(message).toMatch(throttled);
    await noJs.close();

    const page = await browser.newPage({ extraHTTPHeaders: { 'X-Forwarded-For': '198.51.100.23' } });
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Mot de passe').fill('another guess');
    // The wait may be over by the time the page is up: an attempt let in fails and doubles it, the next one meets it.
    let text = '';
    for (let attempt = 0; attempt < 5 && !throttled.test(text); attempt++) {
      const answered = page.waitForResponse((response) => response.url().endsWith('/api/auth/callback/credentials'));
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await answered;
      await expect(page.getByRole('button', { name: 'Se connecter' })).toBeEnabled();
      text = (await page.locator('.form-error').textContent()) ?? '';
    }
    expect(text).toMatch(throttled);
    await page.close();
  });
});

test.describe('credentials in a URL', () => {
  test('GET /login?email=…&password=… is refused: the page does not sign in and drops them from the address', async ({ page, request }) => {
    const direct = await request.get('/login?email=demo%40paraphe.test&password=e2e-password-123', { maxRedirects: 0 });
    expect(direct.status()).toBe(307);
    expect(direct.headers().location).toBe('/login?error=CredentialsInUrl');

    await page.goto(`/login?email=${encodeURIComponent(DEMO.email)}&password=${encodeURIComponent(DEMO.password)}`);
    await expect(page).not.toHaveURL(/password|e2e-password/);
    await expect(page.getByText('Identifiants ignorés')).toBeVisible();
    await page.goto('/');
    await expect(page).toHaveURL(/\/login/);
  });

  test('/api/auth refuses them with 400 before next-auth reads anything', async ({ request }) => {
    const res = await request.get(`/api/auth/callback/credentials?email=x&password=${encodeURIComponent(DEMO.password)}`, { maxRedirects: 0 });
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'credentials_in_query', field: 'password' });
  });
});
