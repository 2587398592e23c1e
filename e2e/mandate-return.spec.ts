import { expect, test } from '@playwright/test';

const PHONE = { width: 390, height: 844 };

/*
 * The page a payer comes back to from Stripe's SEPA mandate setup (/pay/mandate): no JavaScript needed, French by
 * default, English by ?lang=en or the browser's language, on a phone without sideways scrolling.
 */
// A French browser by default: the page follows Accept-Language (the English one is below).
test.use({ viewport: PHONE, isMobile: true, hasTouch: true, javaScriptEnabled: false, locale: 'fr-FR', extraHTTPHeaders: { 'Accept-Language': 'fr-FR,fr;q=0.9' } });

const overflow = (page: import('@playwright/test').Page) => page.evaluate((width) => document.documentElement.scrollWidth - width, PHONE.width);

test('success and cancel, in French then English, readable at 390 px without JavaScript', async ({ page }) => {
  await page.goto('/pay/mandate?status=success');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mandat de prélèvement SEPA en cours d’enregistrement');
  await expect(page.getByText('Vous pouvez fermer cette page.', { exact: false })).toBeVisible();
  expect(await overflow(page)).toBeLessThanOrEqual(0);

  await page.getByRole('link', { name: 'English' }).click();
  await expect(page).toHaveURL(/\/pay\/mandate\?status=success&lang=en$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your SEPA Direct Debit mandate is being recorded');

  await page.goto('/pay/mandate?status=cancel');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Le mandat n’a pas été mis en place');
  await expect(page.getByText('rien ne sera prélevé', { exact: false })).toBeVisible();
  expect(await overflow(page)).toBeLessThanOrEqual(0);
});

test.describe('an English browser', () => {
  test.use({ locale: 'en-GB', extraHTTPHeaders: { 'Accept-Language': 'en-GB,en;q=0.9' } });

  test('reads the page in English', async ({ page }) => {
    const res = await page.goto('/pay/mandate?status=cancel');
    expect(res?.status()).toBe(200);
    expect(res?.headers()['x-robots-tag']).toContain('noindex');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The mandate was not set up');
  });
});
