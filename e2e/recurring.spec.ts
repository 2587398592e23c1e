import { expect, type Page, test } from '@playwright/test';
import { apiAs, PHONE, phoneOverflow, signIn } from './helpers';

/**
 * Issue 16 item 5: the recurring templates' back-office — a template created from scratch and from an invoice, a
 * refusal in French on its field, « Générer maintenant » adding the invoice to the history, pause and activation,
 * deletion (the invoice stays), and the pages at 390 px.
 */

const euros = (text: string) => new RegExp(text.replace(/ /g, '[\\s\\u202f\\u00a0]'));

async function pickClient(page: Page, search: string, name: RegExp) {
  await page.getByRole('combobox', { name: 'Client' }).fill(search);
  await page.getByRole('option', { name }).click();
  await expect(page.getByTestId('editor-contact')).toHaveText(name);
}

test('a template from scratch: refused in French, then created, run now, paused, activated and deleted', async ({ page }) => {
  await signIn(page);
  const api = apiAs(page);
  await api('/v1/contacts', { type: 'professionnel', company: 'Abonné Récurrent SARL', email: 'compta@abonne.test', siret: '73282932000074' });

  await page.goto('/');
  await page.getByRole('navigation', { name: 'Activité' }).getByRole('link', { name: 'Facturation récurrente' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Facturation récurrente' })).toBeVisible();
  await page.getByRole('link', { name: 'Nouveau modèle' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Nouveau modèle récurrent' })).toBeVisible();

  // No client: refused beside the client field, in French.
  await page.getByLabel('Désignation de la ligne 1').fill('Maintenance mensuelle');
  await page.getByLabel('Prix unitaire HT de la ligne 1').fill('150');
  await page.getByRole('button', { name: 'Créer le modèle' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Le modèle n’a pas été enregistré' })).toBeVisible();
  await expect(page.locator('#doc-contact_id-error')).toHaveText('Choisissez un client existant.');

  // Auto-send without the nature of the operation (a mandatory mention): refused on the nature, in French.
  await pickClient(page, 'abonné récurrent', /Abonné Récurrent SARL/);
  await page.getByLabel('Finaliser et envoyer chaque facture par e-mail').check();
  await page.getByRole('button', { name: 'Créer le modèle' }).click();
  await expect(page.locator('#doc-operation_nature-error')).toHaveText('Ce champ est obligatoire.');
  await expect(page.getByLabel('Nature de l’opération')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Finaliser et envoyer chaque facture par e-mail').uncheck();
  await page.getByLabel('Fréquence').selectOption({ label: 'Trimestrielle' });
  await page.getByLabel('Prochaine facture le').fill('2027-01-31');
  await page.getByRole('button', { name: 'Ajouter une remise' }).click();
  await page.getByLabel('Montant de la remise de la ligne 2').fill('20');
  await expect(page.getByTestId('editor-total-ttc')).toHaveText(euros('156,00 €'));
  await page.getByLabel('Objet').fill('Contrat de maintenance');
  await page.getByRole('button', { name: 'Créer le modèle' }).click();

  await expect(page).toHaveURL(/\/recurring\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Contrat de maintenance' })).toBeVisible();
  await expect(page.getByTestId('template-status')).toHaveText('actif');
  await expect(page.getByTestId('template-total-ttc')).toHaveText(euros('156,00 €'));
  const settings = page.getByRole('region', { name: 'Réglages' });
  await expect(settings).toContainText('Trimestrielle : chaque trimestre, le 31');
  await expect(settings).toContainText('31/01/2027');
  await expect(page.getByRole('region', { name: 'Historique' })).toContainText('Aucune facture générée');

  // Générer maintenant, behind its confirmation: the draft appears in the history, linked; the date moves a quarter.
  await page.getByText('Générer maintenant…').click();
  await page.getByRole('button', { name: 'Générer la facture' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Facture générée en brouillon' })).toContainText(euros('156,00 €'));
  const history = page.getByRole('table', { name: 'Factures générées et échecs' });
  await expect(history.locator('tbody tr')).toHaveCount(1);
  await expect(history).toContainText('brouillon créé');
  await expect(settings).toContainText('30/04/2027');
  const templateUrl = page.url();
  await history.getByRole('link', { name: 'Brouillon' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Facture');
  await expect(page.getByTestId('total-ttc')).toHaveText(euros('156,00 €'));
  await page.goto(templateUrl);

  // Pause, then activate again (no backfill: the next date is on or after today).
  await page.getByRole('button', { name: 'Mettre en pause' }).click();
  await expect(page.getByTestId('template-status')).toHaveText('en pause');
  await expect(settings).toContainText('aucune tant que le modèle est en pause');
  await page.getByRole('button', { name: 'Activer' }).click();
  await expect(page.getByTestId('template-status')).toHaveText('actif');
  await expect(page.getByRole('status').filter({ hasText: 'Modèle actif : prochaine facture le 30/04/2027.' })).toBeVisible();

  // The list: the template with its status, frequency and amount; filtered by status.
  await page.goto('/recurring?status=paused');
  await expect(page.getByRole('table', { name: 'Modèles de factures récurrentes' }).getByText('Contrat de maintenance')).toHaveCount(0);
  await page.goto('/recurring?status=active');
  const row = page.getByRole('table', { name: 'Modèles de factures récurrentes' }).getByRole('row', { name: /Contrat de maintenance/ });
  await expect(row).toContainText('Abonné Récurrent SARL');
  await expect(row).toContainText('Trimestrielle');
  await expect(row).toContainText(euros('156,00 €'));

  // Deleted behind its confirmation: the generated invoice stays.
  await page.goto(templateUrl);
  await page.getByText('Supprimer le modèle…').click();
  await page.getByRole('button', { name: 'Supprimer définitivement' }).click();
  await expect(page).toHaveURL(/\/recurring\?deleted=1$/);
  await expect(page.getByRole('status').filter({ hasText: 'Modèle supprimé' })).toContainText('Les factures qu’il a générées restent.');
  await page.goto('/documents?q=Abonn%C3%A9');
  await expect(page.getByRole('table', { name: 'Documents' }).locator('tbody tr')).toHaveCount(1);
});

test('a template from an invoice, prefilled, then edited; the pages fit a phone', async ({ page }) => {
  await signIn(page);
  const api = apiAs(page);
  const contact = await api('/v1/contacts', { type: 'professionnel', company: 'Hébergement Modèle SAS', email: 'compta@modele.test', siret: '73282932000074' });
  const invoice = await api('/v1/invoices', {
    type: 'facture',
    contact_id: contact.id,
    title: 'Hébergement du site',
    operation_nature: 'services',
    items: [
      { description: 'Hébergement', quantity: '2', unit_price: 4500, vat_rate: '20' },
      { kind: 'discount', description: 'Remise fidélité', unit_price: 1000, vat_rate: '20' },
    ],
  });
  // Finalized today (a past issue date becomes the day's): the template's first date is the same day, a month on.
  const issued = (await api(`/v1/invoices/${invoice.id}/finalize`, {})) as unknown as { issue_date: string };

  await page.goto(`/documents/${invoice.id}`);
  await page.getByRole('link', { name: 'Créer un modèle récurrent' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Nouveau modèle récurrent' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Prérempli d’après' })).toBeVisible();
  await expect(page.getByTestId('editor-contact')).toHaveText('Hébergement Modèle SAS');
  await expect(page.getByLabel('Désignation de la ligne 1')).toHaveValue('Hébergement');
  await expect(page.getByLabel('Montant de la remise de la ligne 2')).toHaveValue('10');
  await expect(page.getByLabel('Nature de l’opération')).toHaveValue('services');
  await expect(page.getByTestId('editor-total-ttc')).toHaveText(euros('96,00 €'));
  const next = await page.getByLabel('Prochaine facture le').inputValue();
  expect(next > issued.issue_date && next.slice(0, 7) !== issued.issue_date.slice(0, 7), next).toBe(true);
  await page.getByRole('button', { name: 'Créer le modèle' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Hébergement du site' })).toBeVisible();
  await expect(page.getByTestId('template-total-ttc')).toHaveText(euros('96,00 €'));
  const templateUrl = page.url();

  await page.getByRole('link', { name: 'Modifier' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Modifier le modèle' })).toBeVisible();
  await page.getByLabel('Quantité de la ligne 1').fill('3');
  await page.getByRole('button', { name: 'Enregistrer le modèle' }).click();
  await expect(page).toHaveURL(templateUrl);
  await expect(page.getByTestId('template-total-ttc')).toHaveText(euros('150,00 €'));

  await page.setViewportSize(PHONE);
  for (const path of ['/recurring', new URL(templateUrl).pathname, `${new URL(templateUrl).pathname}/edit`, `/recurring/new?from=${invoice.id}`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
    expect(await phoneOverflow(page), `${path} is wider than the phone`).toEqual({ by: 0, wider: [] });
  }
});
