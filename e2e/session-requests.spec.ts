import { expect, test } from '@playwright/test';
import { DEMO, signIn } from './helpers';

/*
 * Issue 35, item 11: the back-office read /api/auth/session from the browser on every page load and every return to
 * the tab (next-auth's SessionProvider: 154 calls in one walk). The layout reads the session on the server for each
 * request and hands the sidebar what it shows: a walk makes no such request at all. (Signing in is not counted: the
 * login page's signIn() reads the new session once; the org switch posts to it, being what rewrites the cookie.)
 */
test('a walk of the back-office — page loads, clicks in the menu, returns to the tab — never asks /api/auth/session', async ({ page }) => {
  await signIn(page);
  const calls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/auth/session')) calls.push(`${request.method()} from ${page.url()}`);
  });

  for (const path of ['/', '/documents', '/contacts', '/products', '/reminders', '/recurring', '/signature', '/settings/organisation']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
  }
  const activity = page.getByRole('navigation', { name: 'Activité' });
  for (const [link, heading] of [
    ['Devis & factures', 'Devis & factures'],
    ['Contacts', 'Contacts'],
    ['Produits', 'Produits'],
    ['Tableau de bord', /Bonjour/],
  ] as const) {
    await activity.getByRole('link', { name: link, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
  // Leaving the tab and coming back: the provider refetched on this event.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('focus'));
  });
  await page.waitForTimeout(500);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Bonjour');

  expect(calls).toEqual([]);
  // The sidebar still says who is signed in, from the server's reading of the session.
  await expect(page.locator('.sidebar .me')).toContainText(DEMO.email);
  // And signing out still works without the provider.
  await page.getByRole('button', { name: 'Se déconnecter' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/documents');
  await expect(page).toHaveURL(/\/login/);
});
