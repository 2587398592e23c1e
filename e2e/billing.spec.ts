import { expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';

/** An amount as the pages print it (fr-FR: narrow no-break spaces), matched whatever the space character. */
const eur = (text: string) => new RegExp(`^\\s*${text.replace(/ /g, '\\s')}\\s€\\s*$`);
const year = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric' }).format(new Date());

/** A link of the sidebar (pages also link to their parents in their breadcrumbs). */
const menu = (page: Page, name: string) => page.getByRole('navigation', { name: 'Activité' }).getByRole('link', { name });

async function finalize(page: Page, number: string) {
  await page.getByRole('button', { name: 'Finaliser…' }).click();
  await page.getByRole('dialog', { name: 'Finaliser le document' }).getByRole('button', { name: 'Finaliser', exact: true }).click();
  await expect(page.getByTestId('document-number')).toHaveText(number);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(new RegExp(`${number}$`));
}

async function pay(page: Page, amount: string) {
  const form = page.getByRole('region', { name: 'Paiements' });
  await form.getByLabel('Montant reçu (€)').fill(amount);
  await form.getByLabel('Moyen de paiement').selectOption('bank_transfer');
  await form.getByRole('button', { name: 'Enregistrer le paiement' }).click();
}

test('quote → deposit → accept → convert → finalize → payments until paid → credit note, with the amounts at each step', async ({ page }) => {
  await signIn(page);
  const contact = await page.request.post('/v1/contacts', {
    data: {
      type: 'professionnel',
      company: 'Boulangerie Dupain',
      siret: '73282932000074',
      email: 'compta@dupain.test',
      city: 'Lyon',
      default_payment_terms: '45 jours fin de mois',
    },
  });
  expect(contact.status()).toBe(201);

  // A catalogue product, through the products page.
  await menu(page, 'Produits').click();
  await page.getByRole('link', { name: 'Nouveau produit' }).click();
  await page.getByLabel('Nom').fill('Pose de parquet');
  await page.getByLabel('Unité').fill('m²');
  await page.getByLabel('Prix unitaire HT (€)').fill('45,50');
  await page.getByLabel('Taux de TVA').selectOption('10.00');
  await page.getByRole('button', { name: 'Créer le produit' }).click();
  await expect(page.getByText('Produit enregistré.')).toBeVisible();
  await expect(page.getByRole('row', { name: /Pose de parquet/ }).getByRole('cell').nth(2)).toHaveText(eur('45,50'));

  // ── The quote, in the editor ────────────────────────────────────────────
  await menu(page, 'Devis & factures').click();
  await page.getByRole('link', { name: 'Nouveau devis' }).click();
  await expect(page.getByRole('heading', { name: 'Nouveau devis' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Client' }).fill('dupain');
  await page.getByRole('option', { name: /Boulangerie Dupain/ }).click();
  await expect(page.getByTestId('editor-contact')).toHaveText('Boulangerie Dupain');
  // The contact's own payment terms apply.
  await expect(page.getByLabel('Conditions de paiement')).toHaveValue('45 jours fin de mois');

  await page.getByRole('combobox', { name: 'Ajouter un produit du catalogue' }).fill('parquet');
  await page.getByRole('option', { name: /Pose de parquet/ }).click();
  await expect(page.getByLabel('Désignation de la ligne 1')).toHaveValue('Pose de parquet');
  await expect(page.getByLabel('Unité de la ligne 1')).toHaveValue('MTK');
  await expect(page.getByLabel('Prix unitaire HT de la ligne 1')).toHaveValue('45,50');
  await expect(page.getByLabel('Taux de TVA de la ligne 1')).toHaveValue('10.00');
  await page.getByLabel('Quantité de la ligne 1').fill('20');
  await expect(page.getByTestId('line-0-total')).toHaveText(eur('910,00'));

  await page.getByRole('button', { name: 'Ajouter une ligne' }).click();
  await page.getByLabel('Désignation de la ligne 2').fill('Déplacement');
  await page.getByLabel('Prix unitaire HT de la ligne 2').fill('150');
  await page.getByLabel('Taux de TVA de la ligne 2').selectOption('20.00');
  await page.getByRole('button', { name: 'Ajouter une remise' }).click();
  await page.getByLabel('Désignation de la ligne 3').fill('Remise fidélité');
  await page.getByLabel('Montant de la remise de la ligne 3').fill('10');
  // At 5.5 % the discount reduces no line: the server says so, beside that line's rate.
  await page.getByLabel('Taux de TVA de la ligne 3').selectOption('5.50');
  await page.getByLabel('Acompte demandé (%)').fill('30');
  // A mandatory mention of every invoice made from the quote.
  await page.getByLabel('Nature de l’opération').selectOption('mixte');
  await page.getByRole('button', { name: 'Créer le brouillon' }).click();
  await expect(page.getByText('Le brouillon n’a pas été enregistré')).toBeVisible();
  await expect(page.locator('[id="doc-items.2.vat_rate-error"]')).toHaveText('Aucune ligne à 5.50 % à laquelle appliquer cette remise.');
  await expect(page.getByLabel('Taux de TVA de la ligne 3')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Taux de TVA de la ligne 3').selectOption('10.00');
  // Live totals from lib/platform/money: 910 + 150 − 10 HT; VAT 10 % of 900 and 20 % of 150.
  await expect(page.getByTestId('editor-total-ht')).toHaveText(eur('1 050,00'));
  await expect(page.getByTestId('editor-total-tva')).toHaveText(eur('120,00'));
  await expect(page.getByTestId('editor-total-ttc')).toHaveText(eur('1 170,00'));
  await page.getByRole('button', { name: 'Créer le brouillon' }).click();

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Devis (brouillon)');
  await expect(page.getByTestId('total-ttc')).toHaveText(eur('1 170,00'));
  await finalize(page, `DEV-${year}-00001`);
  await expect(page.getByTestId('document-status')).toHaveText('finalisé');
  const quoteUrl = page.url();

  // ── Deposit: 30 % of each VAT group ─────────────────────────────────────
  await page.getByRole('button', { name: 'Facture d’acompte…' }).click();
  await expect(page.getByLabel('Pourcentage du devis')).toHaveValue('30');
  // 30 % of 900 at 10 % and of 150 at 20 %: 270 + 45 HT, 27 + 9 VAT.
  await expect(page.getByTestId('deposit-preview')).toContainText(/Acompte de 315,00\s€ HT, TVA 36,00\s€, soit 351,00\s€ TTC/);
  await page.getByRole('button', { name: 'Créer la facture d’acompte' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Facture d’acompte (brouillon)');
  await expect(page.getByTestId('total-ttc')).toHaveText(eur('351,00'));
  await finalize(page, `AC-${year}-00001`);
  await pay(page, '351');
  await expect(page.getByText('Paiement enregistré : la facture est payée.')).toBeVisible();
  await expect(page.getByTestId('document-status')).toHaveText('payée');

  // ── Accept, then convert with a dry-run preview ─────────────────────────
  await page.goto(quoteUrl);
  await page.getByRole('button', { name: 'Marquer accepté' }).click();
  await expect(page.getByTestId('document-status')).toHaveText('accepté');
  await page.getByRole('button', { name: 'Convertir en facture…' }).click();
  const preview = page.getByTestId('convert-preview');
  // The deposit is deducted per VAT group.
  const deduction = (rate: string) => preview.getByRole('row', { name: new RegExp(`^Déduction de l’acompte AC-${year}-00001 .* ${rate} %`) });
  await expect(deduction('10')).toContainText(/-270,00\s€$/);
  await expect(deduction('20')).toContainText(/-45,00\s€$/);
  await expect(page.getByTestId('convert-total-ttc')).toHaveText(eur('819,00'));
  await page.getByRole('button', { name: 'Créer la facture' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Facture (brouillon)');
  await expect(page.getByTestId('total-ht')).toHaveText(eur('735,00'));
  await expect(page.getByTestId('total-ttc')).toHaveText(eur('819,00'));
  await finalize(page, `FAC-${year}-00001`);

  // ── Payments until paid ─────────────────────────────────────────────────
  await expect(page.getByTestId('remaining-due')).toHaveText(eur('819,00'));
  await pay(page, '500');
  await expect(page.getByTestId('remaining-due')).toHaveText(eur('319,00'));
  await expect(page.getByTestId('document-status')).toHaveText('envoyée');
  await expect(page.getByRole('region', { name: 'Paiements' }).getByLabel('Montant reçu (€)')).toHaveValue('319');
  await pay(page, '319');
  await expect(page.getByTestId('document-status')).toHaveText('payée');
  await expect(page.getByTestId('total-paid')).toHaveText(eur('819,00'));
  await expect(page.getByTestId('remaining-due')).toHaveText(eur('0,00'));
  const invoiceUrl = page.url();

  // ── A partial credit note: 2 m² returned ────────────────────────────────
  await page.getByRole('button', { name: 'Établir un avoir…' }).click();
  await page.getByLabel('Motif').selectOption('return');
  await page.getByLabel('Avoir partiel').check();
  await page.getByLabel('Quantité à créditer, ligne 1').fill('2');
  await expect(page.getByTestId('credit-preview')).toContainText(/Avoir de 91,00\s€ HT, soit 100,10\s€ TTC/);
  await page.getByRole('button', { name: 'Créer l’avoir' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Avoir (brouillon)');
  await expect(page.getByTestId('total-ttc')).toHaveText(eur('100,10'));
  await finalize(page, `AV-${year}-00001`);

  // The family, from the credit note: quote, deposit, invoice, credit note, with what each was paid.
  const family = page.getByRole('table', { name: 'Documents liés' });
  await expect(family.getByRole('row')).toHaveCount(5);
  await expect(family.getByRole('row', { name: new RegExp(`^Devis DEV-${year}-00001 accepté`) })).toBeVisible();
  await expect(family.getByRole('row', { name: new RegExp(`^Acompte AC-${year}-00001 payé`) })).toContainText(/351,00\s€\s*351,00\s€/);
  await expect(family.getByRole('row', { name: new RegExp(`^Facture FAC-${year}-00001 payé`) })).toContainText(/819,00\s€\s*819,00\s€/);
  await expect(family.getByRole('row', { name: new RegExp(`^Avoir AV-${year}-00001 finalisé`) })).toContainText(/100,10\s€/);

  // The invoice now names its credit note beside the balance; no second credit note is offered.
  await page.goto(invoiceUrl);
  await expect(page.getByTestId('balance')).toContainText(`AV-${year}-00001`);
  await expect(page.getByRole('button', { name: 'Établir un avoir…' })).toHaveCount(0);

  // The chain of the four finalized documents verifies (from the folded « Intégrité »).
  await page.getByText('Intégrité', { exact: true }).click();
  await page.getByRole('button', { name: 'Vérifier la chaîne' }).click();
  await expect(page.getByText('Chaîne vérifiée : 4 documents finalisés')).toBeVisible();

  // The list: status chips and totals columns.
  await menu(page, 'Devis & factures').click();
  const list = page.getByRole('table', { name: 'Documents' });
  const rows = list.locator('tbody tr');
  await expect(rows).toHaveCount(4);
  // The footer totals every document of the list (credit notes deducted, the quote apart).
  await expect(list.locator('tfoot')).toContainText('3 factures et avoirs au total, avoirs déduits');
  await page.getByRole('navigation', { name: 'Filtrer par statut' }).getByRole('link', { name: 'payé' }).click();
  await expect(rows).toHaveCount(2);
  await expect(list.getByRole('row', { name: new RegExp(`^FAC-${year}-00001`) }).getByRole('cell').last()).toHaveText(eur('819,00'));

  // The dashboard counts the family once: deposit 315 + invoice balance 735 − credit note 91, HT.
  await menu(page, 'Tableau de bord').click();
  await expect(page.getByTestId('stat-net')).toContainText(/959,00\s€/);
  await expect(page.getByTestId('stat-collected')).toContainText(/1\s170,00\s€/);
  await expect(page.getByRole('img', { name: /Chiffre d’affaires HT net des avoirs par mois/ })).toBeVisible();
});
