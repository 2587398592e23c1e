import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('import a CSV with good, duplicate and bad rows, see the preview then the summary', async ({ page }) => {
  await signIn(page);
  // Already known: its e-mail in the file, in another case, is a duplicate.
  const existing = await page.request.post('/v1/contacts', { data: { company: 'Déjà Là SARL', email: 'deja@import.test' } });
  expect(existing.status()).toBe(201);

  await page.getByRole('link', { name: 'Contacts' }).click();
  await page.getByRole('link', { name: 'Importer', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Importer des contacts' })).toBeVisible();

  const csv = [
    'Prénom;Nom;Société;E-mail;Téléphone;N° SIRET;Étiquettes;Colonne libre',
    'Élodie;Durand;;elodie.durand@import.test;06 12 34 56 78;;salon, vip;x',
    ';;Boulangerie Import;contact@boulangerie-import.test;;732 829 320 00074;;',
    'Paul;Martin;;ELODIE.DURAND@import.test;;;;', // duplicate of row 2, case aside
    'Anne;Deja;;Deja@Import.test;;;;', // duplicate of an existing contact
    'Jeanne;Petit;;jeanne@;;;;', // malformed e-mail
    ';;;sans-nom@import.test;;;;', // neither name nor company
    'Luc;Bernard;;luc.bernard@import.test;;123;;', // SIRET too short
  ].join('\r\n');
  await page.getByLabel('Fichier CSV').setInputFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf-8') });

  // French headers are mapped automatically; an unknown column is ignored.
  await expect(page.getByLabel('Champ de la colonne Prénom')).toHaveValue('first_name');
  await expect(page.getByLabel('Champ de la colonne Nom')).toHaveValue('last_name');
  await expect(page.getByLabel('Champ de la colonne Société')).toHaveValue('company');
  await expect(page.getByLabel('Champ de la colonne E-mail')).toHaveValue('email');
  await expect(page.getByLabel('Champ de la colonne N° SIRET')).toHaveValue('siret');
  await expect(page.getByLabel('Champ de la colonne Colonne libre')).toHaveValue('');

  // The preview names the rows the server will refuse, with the API's reasons.
  await expect(page.getByTestId('import-preview')).toContainText('4 lignes valides, 3 lignes seront refusées');
  const announced = page.getByRole('table', { name: 'Lignes qui seront refusées' });
  await expect(announced.getByRole('row', { name: /^6 E-mail : adresse e-mail invalide/ })).toBeVisible();
  await expect(announced.getByRole('row', { name: /^7 .*indiquez un nom, un prénom ou une société\./i })).toBeVisible();
  await expect(announced.getByRole('row', { name: /^8 SIRET : le SIRET compte 14 chiffres/ })).toBeVisible();

  await page.getByRole('button', { name: 'Importer 7 lignes' }).click();
  const summary = page.getByTestId('import-summary');
  await expect(summary).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Progression de l’import' })).toHaveAttribute('aria-valuenow', '7');
  await expect(summary.getByTestId('import-created')).toHaveText('2');
  await expect(summary.getByTestId('import-skipped')).toHaveText('2');
  await expect(summary.getByTestId('import-errors')).toHaveText('3');
  const refused = summary.getByRole('table', { name: 'Lignes refusées' });
  await expect(refused.getByRole('row', { name: /^6 E-mail : adresse e-mail invalide/ })).toBeVisible();
  await expect(refused.getByRole('row', { name: /^8 SIRET : le SIRET compte 14 chiffres/ })).toBeVisible();

  // The list finds the imported contacts, accents aside.
  await summary.getByRole('link', { name: 'Voir les contacts' }).click();
  await page.getByRole('searchbox', { name: 'Rechercher' }).fill('elodie');
  await page.getByRole('button', { name: 'Filtrer' }).click();
  await expect(page.getByRole('link', { name: 'Élodie Durand' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Boulangerie Import' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Élodie Durand' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Élodie Durand');
  await expect(page.getByText('salon')).toBeVisible();
});

test('merge two contacts from the duplicates page', async ({ page }) => {
  await signIn(page);
  const older = await page.request.post('/v1/contacts', {
    data: { company: 'Menuiserie Fusion', email: 'atelier@fusion.test', postal_code: '69001', tags: ['bois'] },
  });
  expect(older.status()).toBe(201);
  const target = (await older.json()) as { id: string };
  const newer = await page.request.post('/v1/contacts', {
    data: { company: 'MENUISERIE FUSION', email: 'atelier@fusion.test', phone: '04 72 00 00 00', postal_code: '69 001', tags: ['client', 'bois'] },
  });
  expect(newer.status()).toBe(201);

  await page.goto('/contacts');
  await page.getByRole('link', { name: 'Doublons' }).click();
  const group = page.getByRole('region', { name: 'Doublons : Menuiserie Fusion' });
  await expect(group.getByText('Même e-mail')).toBeVisible();
  await expect(group.getByText('Même nom et code postal')).toBeVisible();
  // The oldest contact is kept by default; the other one is merged into it.
  await expect(group.getByRole('radio', { name: 'Garder Menuiserie Fusion', exact: true })).toBeChecked();
  await expect(group.getByRole('checkbox', { name: 'Fusionner MENUISERIE FUSION', exact: true })).toBeChecked();

  await group.getByRole('button', { name: 'Aperçu de la fusion' }).click();
  const preview = group.getByTestId('merge-preview');
  await expect(preview.getByRole('row', { name: /^Téléphone/ })).toContainText('04 72 00 00 00');
  await expect(preview.getByRole('row', { name: /^Étiquettes/ }).getByRole('cell').last()).toHaveText('bois, client (réunies)');
  await expect(preview.getByText('Une fusion ne se défait pas.')).toBeVisible();
  // Where the values differ, the merged value can be chosen: the preview follows.
  await preview.getByRole('radio', { name: 'MENUISERIE FUSION', exact: true }).check();
  await expect(preview.getByRole('row', { name: /^Société/ }).getByRole('cell').last()).toHaveText('MENUISERIE FUSION');
  await preview.getByRole('radio', { name: 'Menuiserie Fusion', exact: true }).check();
  await expect(preview.getByRole('row', { name: /^Société/ }).getByRole('cell').last()).toHaveText('Menuiserie Fusion');

  await preview.getByRole('button', { name: 'Fusionner dans « Menuiserie Fusion »' }).click();
  await expect(page).toHaveURL(new RegExp(`/contacts/${target.id}\\?merged=1$`));
  await expect(page.getByText('1 contact fusionné dans celui-ci.')).toBeVisible();
  await expect(page.getByText('04 72 00 00 00')).toBeVisible();
  await expect(page.getByRole('link', { name: 'client', exact: true })).toBeVisible();

  await page.goto('/contacts/duplicates');
  await expect(page.getByRole('region', { name: 'Doublons : Menuiserie Fusion' })).toHaveCount(0);
});

test('create a contact through the form, fix a validation error, then export, delete, restore and erase it', async ({ page }) => {
  await signIn(page);
  await page.goto('/contacts');
  await page.getByRole('link', { name: 'Nouveau contact' }).click();
  // The list's filters have a "Type" select too: wait for the form's page.
  await expect(page.getByRole('heading', { name: 'Nouveau contact' })).toBeVisible();

  await page.getByLabel('Type').selectOption('particulier');
  await page.getByLabel('E-mail').fill('jeanne.martin@');
  await page.getByLabel('Score').fill('120');
  await page.getByRole('button', { name: 'Créer le contact' }).click();

  // The API's refusals in French (lib/platform/i18n), beside their fields; what was typed is still there.
  await expect(page.getByText('Le contact n’a pas été enregistré')).toBeVisible();
  await expect(page.locator('#contact-email-error')).toHaveText('Adresse e-mail invalide (ex. nom@exemple.fr).');
  await expect(page.locator('#contact-lead_score-error')).toHaveText('Entre 0 et 100.');
  await expect(page.getByLabel('E-mail')).toHaveValue('jeanne.martin@');
  await expect(page.getByLabel('Type')).toHaveValue('particulier');

  // Like the API, the whole-contact rule (a name or a company) is judged once the fields themselves are valid.
  await page.getByLabel('E-mail').fill('Jeanne.Martin@Example.fr ');
  await page.getByLabel('Score').fill('40');
  await page.getByRole('button', { name: 'Créer le contact' }).click();
  await expect(page.locator('#contact-last_name-error')).toHaveText('Indiquez un nom, un prénom ou une société.');
  await expect(page.locator('#contact-email-error')).toHaveCount(0);

  await page.getByLabel('Prénom').fill('Jeanne');
  await page.getByLabel('Nom', { exact: true }).fill('Martin');
  await page.getByLabel('Consentement marketing').selectOption('true');
  await page.getByLabel('Source du consentement').fill('salon Batimat');
  await page.getByLabel('Étiquettes').fill('salon, salon, vip');
  await page.getByRole('button', { name: 'Créer le contact' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Jeanne Martin');
  await expect(page.getByText('jeanne.martin@example.fr')).toBeVisible();
  const history = page.getByRole('table', { name: 'Historique du consentement' });
  await expect(history.getByRole('cell', { name: 'salon Batimat' })).toBeVisible();
  const id = page.url().split('/').at(-1)!;

  // The GDPR export is a download of the API's bundle, with the staff session.
  const exported = await page.request.get(`/v1/contacts/${id}/export`);
  expect(exported.status()).toBe(200);
  expect(exported.headers()['content-disposition']).toBe(`attachment; filename="contact-${id}.json"`);
  expect(await exported.json()).toMatchObject({ format: 'paraphe.contact-export.v1', contact: { id, tags: ['salon', 'vip'] } });

  await page.getByRole('button', { name: 'Supprimer' }).click();
  await expect(page.getByText(/^Supprimé le/)).toBeVisible();
  await page.getByRole('button', { name: 'Restaurer' }).click();
  await expect(page.getByRole('link', { name: 'Modifier' })).toBeVisible();

  await page.getByRole('button', { name: 'Effacer les données (RGPD)' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('irréversible');
  await confirm.getByRole('button', { name: 'Effacer définitivement' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact effacé');
  await expect(page.getByText('jeanne.martin@example.fr')).toHaveCount(0);
});

test('filter the contacts list by a status chip, page through it, and come back to the first page', async ({ page }) => {
  await signIn(page);
  // 55 contacts tagged for this journey: 53 won, 2 lost — more won than one page (50) holds.
  const contacts = Array.from({ length: 55 }, (_, i) => ({
    company: `Pager ${String(i).padStart(2, '0')} SARL`,
    tags: ['pager-e2e'],
    lead_status: i < 2 ? 'lost' : 'won',
  }));
  const imported = await page.request.post('/v1/contacts/import', { data: { contacts } });
  expect(imported.status()).toBe(200);
  expect((await imported.json()).created).toBe(55);

  await page.goto('/contacts?tag=pager-e2e');
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(51); // header + the first 50

  const chips = page.getByRole('navigation', { name: 'Filtrer par statut' });
  await chips.getByRole('link', { name: 'Perdu' }).click();
  await expect(page).toHaveURL(/lead_status=lost/);
  await expect(page).toHaveURL(/tag=pager-e2e/);
  await expect(chips.getByRole('link', { name: 'Perdu' })).toHaveAttribute('aria-current', 'true');
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole('link', { name: 'Suivant' })).toHaveCount(0);

  await chips.getByRole('link', { name: 'Gagné' }).click();
  await expect(rows).toHaveCount(51);
  await page.getByRole('link', { name: 'Suivant' }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(rows).toHaveCount(4); // the 3 won contacts left
  await expect(page.getByRole('link', { name: 'Suivant' })).toHaveCount(0);

  // A chip always restarts at the first page, keeping the other filters.
  await chips.getByRole('link', { name: 'Tous' }).click();
  await expect(page).not.toHaveURL(/cursor=/);
  await expect(page).toHaveURL(/tag=pager-e2e/);
  await expect(rows).toHaveCount(51);
  await page.getByRole('link', { name: 'Suivant' }).click();
  await page.getByRole('link', { name: 'Première page' }).click();
  await expect(page).not.toHaveURL(/cursor=/);
  await expect(rows).toHaveCount(51);

  // A forged cursor says so instead of failing.
  await page.goto('/contacts?tag=pager-e2e&cursor=forged');
  await expect(page.getByText('Ce lien de pagination n’est plus valable')).toBeVisible();
});
