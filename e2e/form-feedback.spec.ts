import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { PHONE, signIn } from './helpers';

/*
 * Issue 35, item 3: at the bottom of a long form, what became of the submission is said beside its button, and after
 * a refusal the first field in error has the focus, on screen — at 1440 px and on a phone.
 */

/** Whether the element is within the viewport. */
const onScreen = (locator: Locator) =>
  locator.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight;
  });

/** The vertical distance between two elements, in px. */
async function gap(a: Locator, b: Locator) {
  const [boxA, boxB] = [await a.boundingBox(), await b.boundingBox()];
  if (!boxA || !boxB) throw new Error('an element has no box');
  return Math.abs(boxA.y + boxA.height / 2 - (boxB.y + boxB.height / 2));
}

async function axeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const viewport of [{ width: 1440, height: 900 }, PHONE]) {
  test(`at ${viewport.width} px: Nouveau contact refused → the message beside the button, the first field in error focused and on screen; Réglages → Facturation saved → said beside the button`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page);

    await page.goto('/contacts/new');
    await expect(page.getByRole('heading', { name: 'Nouveau contact' })).toBeVisible();
    // A private person with a name: the e-mail is the first field in error, the score the second.
    await page.getByLabel('Type').selectOption('particulier');
    await page.locator('#contact-last_name').fill('Martin');
    await page.getByLabel('E-mail').fill('jeanne.martin@');
    await page.getByLabel('Score').fill('120');
    const create = page.getByRole('button', { name: 'Créer le contact' });
    await create.scrollIntoViewIfNeeded();
    await create.click();

    const refusal = page.locator('.form-actions').getByRole('alert');
    await expect(refusal).toHaveText('Le contact n’a pas été enregistré : corrigez les champs signalés.');
    // Beside the button: on its line at 1440 px, just under it on a phone (the row wraps).
    expect(await gap(refusal, create)).toBeLessThan(viewport.width < 600 ? 90 : 30);
    // The first field in error — the e-mail comes before the score — has the focus and was scrolled to.
    const email = page.getByLabel('E-mail');
    await expect(email).toBeFocused();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('[aria-invalid="true"]').first()).toHaveId('contact-email');
    expect(await onScreen(email)).toBe(true);
    await expect(page.locator('#contact-email-error')).toHaveText('Adresse e-mail invalide (ex. nom@exemple.fr).');
    await axeClean(page);

    await page.goto('/settings/invoicing');
    const bic = await page.getByLabel('BIC').inputValue();
    await page.getByLabel('BIC').fill('XX');
    const save = page.getByRole('button', { name: 'Enregistrer' });
    await save.scrollIntoViewIfNeeded();
    await save.click();
    const refused = page.locator('.form-actions').getByRole('alert');
    await expect(refused).toContainText('Les réglages n’ont pas été enregistrés');
    await expect(page.getByLabel('BIC')).toBeFocused();
    expect(await onScreen(page.getByLabel('BIC'))).toBe(true);

    await page.getByLabel('BIC').fill(bic);
    await save.scrollIntoViewIfNeeded();
    await save.click();
    const saved = page.locator('.form-actions').getByRole('status');
    await expect(saved).toHaveText('Réglages de facturation enregistrés.');
    expect(await onScreen(saved)).toBe(true);
    expect(await gap(saved, save)).toBeLessThan(viewport.width < 600 ? 90 : 30);
    await axeClean(page);
  });
}
