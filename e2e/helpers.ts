import { expect, type Page } from '@playwright/test';

export const DEMO = { email: 'demo@paraphe.test', password: 'e2e-password-123' };

export async function signIn(page: Page) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(DEMO.email);
  await page.getByLabel('Mot de passe').fill(DEMO.password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Bonjour');
}
