import type { Page } from '@playwright/test';
import { apiAs } from './helpers';

/** The ids of a small but complete data set: every back-office page has something to show. */
export interface Showcase {
  contact: string;
  quote: string;
  deposit: string;
  draft: string;
  finalized: string;
  invoice: string;
  creditNote: string;
  product: string;
  /** A monthly recurring template of the client, run once (its history has the draft it generated). */
  recurring: string;
}

/**
 * A client, a quote accepted with its deposit, a draft, a finalized invoice not yet sent, an invoice sent and
 * partly paid with a manual reminder, a partial credit note, a product and a recurring template run once, all through
 * /v1 as the staff session.
 */
export async function seedShowcase(page: Page): Promise<Showcase> {
  const api = apiAs(page);
  const contact = await api('/v1/contacts', {
    type: 'professionnel',
    company: 'Ébénisterie Vitrac',
    first_name: 'Lucie',
    last_name: 'Vitrac',
    email: 'compta@vitrac.test',
    siret: '73282932000074',
    address: '12 rue de la République',
    postal_code: '69002',
    city: 'Lyon',
  });
  const items = [
    { description: 'Pose de parquet chêne', quantity: '20', unit: 'MTK', unit_price: 4550, vat_rate: '10' },
    { description: 'Déplacement', quantity: '1', unit_price: 15000, vat_rate: '20' },
  ];
  const doc = (type: string, extra: object = {}) =>
    api('/v1/invoices', { type, contact_id: contact.id, operation_nature: 'mixte', payment_terms: '30 jours', items, ...extra });

  const quote = await doc('devis', { deposit_request_percentage: '30' });
  await api(`/v1/invoices/${quote.id}/finalize`, undefined);
  await api(`/v1/invoices/${quote.id}/accept`, undefined);
  const deposit = await api(`/v1/invoices/${quote.id}/deposit`, {});
  await api(`/v1/invoices/${deposit.id}/finalize`, undefined);

  const draft = await doc('facture');
  const finalized = await doc('facture');
  await api(`/v1/invoices/${finalized.id}/finalize`, undefined);

  const invoice = await doc('facture');
  await api(`/v1/invoices/${invoice.id}/finalize`, undefined);
  await api(`/v1/invoices/${invoice.id}/send`, { message: 'Merci pour votre confiance.' });
  await api(`/v1/invoices/${invoice.id}/payments`, { amount: 30000, method: 'bank_transfer', reference: 'VIR-0042' });
  await api(`/v1/invoices/${invoice.id}/reminders`, { message: 'Un petit rappel amical.' });
  const creditNote = await api(`/v1/invoices/${invoice.id}/credit-note`, {
    credit_reason_code: 'commercial_gesture',
    credit_reason_text: 'Geste commercial sur le déplacement',
    items: [{ description: 'Déplacement', quantity: '1', unit_price: 15000, vat_rate: '20' }],
  });
  await api(`/v1/invoices/${creditNote.id}/finalize`, undefined);

  const product = await api('/v1/products', { name: 'Pose de parquet chêne', unit: 'MTK', unit_price_cents: 4550, vat_rate: '10' });
  const recurring = await api('/v1/recurring-invoices', {
    contact_id: contact.id,
    frequency: 'monthly',
    title: 'Entretien des parquets',
    next_generation_date: '2027-01-31',
    operation_nature: 'services',
    items: [{ description: 'Entretien mensuel', quantity: '1', unit_price: 12000, vat_rate: '20' }],
  });
  await api(`/v1/recurring-invoices/${recurring.id}/run`, undefined);
  return {
    contact: contact.id,
    quote: quote.id,
    deposit: deposit.id,
    draft: draft.id,
    finalized: finalized.id,
    invoice: invoice.id,
    creditNote: creditNote.id,
    product: product.id,
    recurring: recurring.id,
  };
}
