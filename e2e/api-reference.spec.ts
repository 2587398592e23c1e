import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

/**
 * The API reference (/docs/api, Scalar) shows the OpenAPI `webhooks`: each catalogued event with its Standard Webhooks
 * headers and its example body (lib/platform/openapi/examples/events.json; a token not emitted yet would be marked so); WCAG 2.1 AA there
 * too (wcag.spec.ts checks the page as it opens, with the groups closed).
 */
async function openEvent(page: Page, token: string) {
  await page.getByText(token, { exact: true }).first().click();
  await expect(page.getByRole('heading', { name: token }).first()).toBeVisible();
}

async function violations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) ${v.help}: ${n.target.join(' ')}`));
}

test('the API reference lists every webhook event with its headers and a real example body', async ({ page }) => {
  // axe over the whole rendered reference takes long on a loaded machine.
  test.setTimeout(240_000);
  await page.goto('/docs/api');
  await expect(page.getByRole('heading', { name: 'Paraphe API' }).first()).toBeVisible({ timeout: 20_000 });
  await page.locator('li', { hasText: 'Webhook events' }).getByRole('button').first().click();

  await openEvent(page, 'invoice.paid');
  await expect(page.getByText('An invoice or deposit is fully paid.').first()).toBeVisible();
  const headers = page.getByRole('list', { name: 'Headers' }).filter({ visible: true }).first();
  for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) await expect(headers.getByRole('button', { name: `Copy link to ${header}` })).toBeAttached();
  // The example: the body the catalogue walk's payment produced, a finalized facture with its number.
  const example = page.locator('pre, code').filter({ hasText: '"type": "invoice.paid"' }).first();
  await expect(example).toBeVisible();
  await expect(example).toContainText('"number": "FAC-');
  expect(await violations(page)).toEqual([]);

  // Its example is the body the catalogue walk's last signature produced.
  await openEvent(page, 'signature.envelope.completed');
  await expect(page.locator('pre, code').filter({ hasText: '"type": "signature.envelope.completed"' }).first()).toContainText('"status": "completed"');
});

test('Réglages → Webhooks links to the events of the reference, which opens on them', async ({ page }) => {
  await page.goto('/docs/api#tag/webhook-events');
  await expect(page.getByRole('heading', { name: 'Webhook events' }).first()).toBeInViewport({ timeout: 20_000 });
  await expect(page.getByText('contact.created', { exact: true }).first()).toBeVisible();
});
