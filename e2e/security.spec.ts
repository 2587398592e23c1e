import { expect, type Page, test } from '@playwright/test';
import { apiAs, signIn } from './helpers';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const FOREIGN_ID = '01a21553-0000-7000-8000-00000000f0e1';

interface PostedForm {
  page: string;
  fields: Array<[string, string]>;
}

/** The forms of a page as a browser without JavaScript submits them: those bound to something by an id. */
async function actionForms(page: Page, url: string): Promise<PostedForm[]> {
  await page.goto(url);
  const forms = await page.$$eval('form', (elements) =>
    elements.map((form) => [...new FormData(form as HTMLFormElement).entries()].map(([name, value]) => [name, String(value)] as [string, string])),
  );
  return forms.filter((fields) => fields.some(([name, value]) => name.startsWith('$ACTION_') && /[0-9a-f]{8}-/.test(value))).map((fields) => ({ page: url, fields }));
}

test('every back-office action form posted without JavaScript with a foreign id answers at once, with the form error', async ({ page, browser }) => {
  await signIn(page);
  const origin = new URL(page.url()).origin;
  const api = apiAs(page);
  const contact = await api('/v1/contacts', { type: 'professionnel', company: 'Sécurité SARL', email: 'compta@securite.test', siret: '73282932000074' });
  const item = { description: 'Audit', quantity: '1', unit_price: 100000, vat_rate: '20' };
  const draft = await api('/v1/invoices', { type: 'facture', contact_id: contact.id, operation_nature: 'services', items: [item] });
  const quote = await api('/v1/invoices', { type: 'devis', contact_id: contact.id, operation_nature: 'services', items: [item] });
  await api(`/v1/invoices/${quote.id}/finalize`, {});
  const invoice = await api('/v1/invoices', { type: 'facture', contact_id: contact.id, operation_nature: 'services', items: [item] });
  await api(`/v1/invoices/${invoice.id}/finalize`, {});
  await api(`/v1/invoices/${invoice.id}/payments`, { amount: 20000, method: 'bank_transfer' });
  const product = await api('/v1/products', { name: 'Audit de sécurité', unit_price_cents: 100000, vat_rate: '20' });

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  await noScript.addCookies(await page.context().cookies());
  const plain = await noScript.newPage();
  const forms: PostedForm[] = [];
  for (const url of [
    `/documents/${draft.id}`,
    `/documents/${quote.id}`,
    `/documents/${invoice.id}`,
    `/contacts/${contact.id}/edit`,
    `/products/${product.id}/edit`,
  ]) {
    forms.push(...(await actionForms(plain, url)));
  }
  // The draft (finalize, delete), the quote (accept, reject, duplicate, cancel), the invoice (payments, reminders).
  expect(forms.length).toBeGreaterThanOrEqual(8);

  for (const form of forms) {
    const multipart: Record<string, string> = {};
    for (const [name, value] of form.fields) if (name) multipart[name] = name.startsWith('$ACTION_') ? value.replace(UUID, FOREIGN_ID) : value;
    const started = Date.now();
    const res = await plain.request.post(form.page, { multipart, headers: { Origin: origin }, timeout: 5_000, maxRedirects: 0 });
    const elapsed = Date.now() - started;
    const label = `${form.page} ${form.fields.find(([name]) => name === '$ACTION_KEY')?.[1] ?? ''}`;
    expect(elapsed, label).toBeLessThan(1_000);
    expect([200, 404], label).toContain(res.status());
    if (res.status() === 200) expect(await res.text(), label).toMatch(/introuvable|n’existe plus/);
  }

  // Nothing was done to the real documents.
  const still = await page.request.get(`/v1/invoices/${draft.id}`);
  expect(((await still.json()) as { status: string }).status).toBe('draft');
  await noScript.close();
});

test('every page carries the security headers and a fresh script nonce, and runs without a CSP violation', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|frame)/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  await signIn(page);
  const nonces = new Set<string>();
  for (const path of ['/login', '/', '/settings/api-keys', '/documents', '/contacts', '/docs/api', '/v1/openapi.json']) {
    const res = await page.request.get(path);
    const headers = res.headers();
    expect(headers['x-frame-options'], path).toBe('SAMEORIGIN');
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('same-origin');
    expect(headers['permissions-policy'], path).toContain('camera=()');
    expect(headers['strict-transport-security'], path).toBeUndefined();
    const policy = headers['content-security-policy'] ?? '';
    expect(policy, path).toContain("frame-ancestors 'self'");
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce, path).toBeTruthy();
    nonces.add(nonce as string);
    if (headers['content-type']?.startsWith('text/html')) {
      // Every script of the page carries this response's nonce.
      const scripts = (await res.text()).match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length, path).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
    }
  }
  expect(nonces.size).toBe(7);

  // The pages work under the policy: the back-office hydrates, the API reference renders.
  await page.goto('/settings/api-keys');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto('/docs/api');
  await expect(page.getByText('Paraphe API').first()).toBeVisible({ timeout: 20_000 });
  expect(violations).toEqual([]);
});
