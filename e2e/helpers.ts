import { appendFileSync } from 'node:fs';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const DEMO = { email: 'demo@paraphe.test', password: 'e2e-password-123' };

/** Each server's whole output during the run (playwright.config.ts: one server per worker), and the secrets a journey handled. */
export const serverLog = (index: number) => `.data/e2e-server-${index}.log`;
/** How many servers (and workers) the run starts: E2E_WORKERS, 1 by default (playwright.config.ts says why). */
export const e2eServers = () => Math.max(1, Number(process.env.E2E_WORKERS ?? 1));
export const SECRETS_FILE = '.data/e2e-secrets.txt';

/** A secret the journey saw (a key created, a password typed): e2e/log-audit.ts checks the server never logged it. */
export function rememberSecret(secret: string) {
  appendFileSync(SECRETS_FILE, `${secret}\n`);
}

/** The phone the back office must fit (no horizontal overflow at 390 px). */
export const PHONE = { width: 390, height: 844 };

/**
 * How far the page is wider than the phone (0: nothing sticks out sideways), and what sticks out; tables scroll inside
 * themselves. Measured against the device's width: a mobile browser widens its layout viewport to the content, so
 * innerWidth would follow it.
 */
export const phoneOverflow = (page: Page) =>
  page.evaluate((width) => {
    const wider = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !el.closest('.table'))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
      .slice(0, 5);
    return { by: document.documentElement.scrollWidth - width, wider };
  }, PHONE.width);

export async function signIn(page: Page) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(DEMO.email);
  await page.getByLabel('Mot de passe').fill(DEMO.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Bonjour');
}

/**
 * A POST to the app's own API with the page's session cookie (a same-origin write, as the back-office makes), expected
 * to succeed: for journeys that set up their data through /v1 before acting in the pages.
 */
export function apiAs(page: Page) {
  const origin = new URL(page.url()).origin;
  return async (path: string, data: unknown) => {
    const res = await page.request.post(path, { data, headers: { Origin: origin } });
    expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
    return (await res.json()) as { id: string };
  };
}

/**
 * Pays a finalized invoice by card as its payer would: its payment link, the /pay page's « Payer par carte » form
 * posted to the fake hosted Checkout (scripts/fake-stripe.ts), paid there, back on the success page.
 */
export async function payByCard(page: Page, invoiceId: string, request: APIRequestContext = page.request) {
  const { url } = (await apiAs(page)(`/v1/invoices/${invoiceId}/payment-link`, {})) as unknown as { url: string };
  rememberSecret(url.split('/pay/')[1]!);
  const checkout = await request.post(`${url}/checkout`, { form: { method: 'card' }, maxRedirects: 0 });
  expect(checkout.status()).toBe(303);
  await page.goto(checkout.headers().location!);
  await page.getByRole('button', { name: 'Payer', exact: true }).click();
  await expect(page).toHaveURL(/status=success/);
}
