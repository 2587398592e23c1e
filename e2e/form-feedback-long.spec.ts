import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { PHONE, signIn } from './helpers';

/*
 * Issue 35, item 3, the other long forms (e2e/form-feedback.spec.ts has the contact form and Réglages → Facturation):
 * what became of the submission is said beside the button, and after a refusal the first field in error has the
 * focus, on screen — Réglages → Organisation, the product form, « Nouveau webhook », the invoice editor.
 */

const onScreen = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight;
  });

async function gap(a: Locator, b: Locator) {
  const [boxA, boxB] = [await a.boundingBox(), await b.boundingBox()];
  if (!boxA || !boxB) throw new Error('an element has no box');
  return Math.abs(boxA.y + boxA.height / 2 - (boxB.y + boxB.height / 2));
}

async function axeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Clicks the form's button where it is, at the bottom, as a person would. */
async function submit(button: Locator) {
  await button.scrollIntoViewIfNeeded();
  await button.click();
}

for (const viewport of [{ width: 1440, height: 900 }, PHONE]) {
  const near = viewport.width < 600 ? 90 : 30;

  test(`at ${viewport.width} px: Réglages → Organisation and a new product say their outcome beside the button, focus the first field in error`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page);

    await page.goto('/settings/organisation');
    const siren = page.getByLabel('SIREN', { exact: true });
    const kept = await siren.inputValue();
    await siren.fill('123');
    const save = page.getByRole('button', { name: 'Enregistrer', exact: true });
    await submit(save);
    const refusal = page.locator('.form-actions').getByRole('alert');
    await expect(refusal).toHaveText('L’identité n’a pas été enregistrée : corrigez les champs signalés.');
    expect(await gap(refusal, save)).toBeLessThan(near);
    await expect(siren).toBeFocused();
    await expect(siren).toHaveValue('123');
    expect(await onScreen(siren)).toBe(true);
    await axeClean(page);

    await siren.fill(kept);
    await submit(save);
    const saved = page.locator('.form-actions').getByRole('status');
    await expect(saved).toHaveText('Identité enregistrée.');
    expect(await onScreen(saved)).toBe(true);
    expect(await gap(saved, save)).toBeLessThan(near);

    await page.goto('/products/new');
    await page.getByLabel('Prix unitaire HT (€)').fill('12,50');
    const create = page.getByRole('button', { name: 'Créer le produit' });
    await submit(create);
    const refused = page.locator('.form-actions').getByRole('alert');
    await expect(refused).toHaveText('Le produit n’a pas été enregistré : corrigez les champs signalés.');
    expect(await gap(refused, create)).toBeLessThan(near);
    // The name is required: it takes the focus, the price keeps what was typed.
    await expect(page.getByLabel('Nom')).toBeFocused();
    await expect(page.getByLabel('Nom')).toHaveAttribute('aria-invalid', 'true');
    expect(await onScreen(page.getByLabel('Nom'))).toBe(true);
    await expect(page.getByLabel('Prix unitaire HT (€)')).toHaveValue('12,50');
    await axeClean(page);
  });

  test(`at ${viewport.width} px: « Nouveau webhook » and the invoice editor refuse beside their button`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page);

    await page.goto('/settings/webhooks');
    await page.getByLabel('URL de réception').fill('https://exemple.fr/webhooks/paraphe');
    const create = page.getByRole('button', { name: 'Créer le webhook' });
    await submit(create);
    const refusal = page.locator('.form-actions').getByRole('alert');
    await expect(refusal).toHaveText('Le webhook n’a pas été créé : corrigez les champs signalés.');
    expect(await gap(refusal, create)).toBeLessThan(near);
    await axeClean(page);

    await page.goto('/documents/new?type=facture');
    const save = page.getByRole('button', { name: 'Créer le brouillon' });
    await submit(save);
    const refused = page.locator('.form-actions').getByRole('alert');
    await expect(refused).toContainText('Le brouillon n’a pas été enregistré : corrigez les champs signalés.');
    expect(await gap(refused, save)).toBeLessThan(near);
    // The first field in error is focused and scrolled to, far above the button.
    const first = page.locator('form [aria-invalid="true"]').first();
    await expect(first).toBeFocused();
    expect(await onScreen(first)).toBe(true);
    // Twice: the editor keeps its state between attempts, and focuses again.
    await submit(save);
    await expect(first).toBeFocused();
  });
}
