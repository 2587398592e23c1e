import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('the keyboard: a skip link first, "/" to search and "N" for a new item on the lists, a visible focus', async ({ page }) => {
  await signIn(page);
  await page.goto('/contacts');

  // The first Tab reaches the skip link, which takes the focus past the navigation.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Aller au contenu' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#content')).toBeFocused();

  // "/" puts the cursor in the search; typing there is typing, not a shortcut.
  await page.keyboard.press('/');
  const search = page.getByRole('searchbox', { name: 'Rechercher' });
  await expect(search).toBeFocused();
  await page.keyboard.type('n/');
  await expect(search).toHaveValue('n/');
  await expect(page).toHaveURL(/\/contacts(#content)?$/);

  // Tab onto a button shows a focus ring.
  await page.keyboard.press('Tab');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement as Element).outlineStyle);
  expect(outline).not.toBe('none');

  // "N" opens the list's "new" page, on each list.
  await page.locator('h1').click();
  await page.keyboard.press('n');
  await expect(page).toHaveURL(/\/contacts\/new$/);
  for (const [list, target] of [
    ['/documents', /\/documents\/new\?type=facture$/],
    ['/products', /\/products\/new$/],
  ] as const) {
    await page.goto(list);
    // A key pressed before the page is hydrated reaches no handler (CI once pressed "N" too early).
    await page.locator('html[data-shortcuts="on"]').waitFor({ state: 'attached' });
    await page.keyboard.press('N');
    await expect(page).toHaveURL(target);
  }
});
