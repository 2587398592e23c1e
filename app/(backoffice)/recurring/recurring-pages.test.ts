import { beforeAll, describe, expect, it } from 'vitest';
import { eraseContact } from '@/lib/domain/contacts';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { ApiError } from '@/lib/platform/errors';
import {
  createRecurringTemplate,
  getRecurringTemplate,
  RecurringTemplateCreate,
  RecurringTemplatePatch,
  runRecurringTemplate,
  templateContacts,
  templateHistory,
  updateRecurringTemplate,
} from '@/lib/domain/recurring';
import { templateBody } from '@/lib/domain/recurring/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { formFromInvoice, formFromTemplate, newTemplateForm, toTemplatePayload } from './editor-model';
import { failureText } from './labels';

let org: TestOrg;
let other: TestOrg;
let b: Awaited<ReturnType<typeof billingContext>>;
let contact: { id: string };
beforeAll(async () => {
  org = await createTestOrg();
  other = await createTestOrg();
  b = await billingContext(org);
  contact = await b.contact({ email: 'compta@client.example' });
});

describe('the editor model against lib/domain/recurring', () => {
  it('an invoice becomes a template with the same lines and totals to the cent (its discount kept, its product dropped)', async () => {
    const invoice = b.expectStatus(
      await b.create({ type: 'facture', contact_id: contact.id, items: [line('Hébergement', '3', 3333, '20'), { kind: 'discount', description: 'Remise fidélité', unit_price: 1000, vat_rate: '20' }] }),
      201,
      'invoice',
    );
    const form = formFromInvoice(invoice, '2026-12-26');
    expect(form.lines.map((l) => [l.kind, l.description, l.quantity, l.unit_price, l.product_id])).toEqual([
      ['product', 'Hébergement', '3', '33,33', null],
      ['discount', 'Remise fidélité', '', '10', null],
    ]);
    const { payload, errors } = toTemplatePayload(form, 'create');
    expect(errors).toEqual({});
    const t = await createRecurringTemplate(org.db, org.org.id, RecurringTemplateCreate.parse(payload));
    expect([t.contact_id, t.frequency, t.next_generation_date, t.total_ht, t.total_ttc]).toEqual([contact.id, 'monthly', '2026-12-26', invoice.total_ht, invoice.total_ttc]);
    expect([t.total_ht, t.total_ttc]).toEqual([8999, 10799]);
  });

  it('a template read back and saved unchanged keeps its lines; blank texts clear on update', async () => {
    const t = await createRecurringTemplate(org.db, org.org.id, RecurringTemplateCreate.parse(templateBody(contact.id, { title: 'Maintenance', notes: 'Merci' })));
    const form = formFromTemplate(t);
    expect(form.lines[0]).toMatchObject({ description: 'Abonnement', quantity: '1', unit_price: '1200', vat_rate: '20.00' });
    const { payload } = toTemplatePayload({ ...form, title: ' ', frequency: 'quarterly' }, 'update');
    expect(payload).toMatchObject({ title: null, notes: 'Merci', operation_nature: 'services', frequency: 'quarterly' });
    const saved = await updateRecurringTemplate(org.db, org.org.id, t.id, RecurringTemplatePatch.parse(payload));
    expect([saved.title, saved.frequency, saved.items, saved.total_ttc]).toEqual([null, 'quarterly', t.items, t.total_ttc]);
  });

  it('amounts typed the French way become cents; an amount that is not euros is refused before the server', () => {
    const form = newTemplateForm('2026-11-26');
    const typed = { ...form, contact_id: contact.id, lines: [{ ...form.lines[0]!, description: 'Licence', unit_price: '49,90' }] };
    expect(toTemplatePayload(typed, 'create').payload.items).toEqual([
      { kind: 'product', description: 'Licence', details: null, quantity: '1', unit: null, unit_price: 4990, vat_rate: '20.00' },
    ]);
    expect(toTemplatePayload({ ...typed, lines: [{ ...typed.lines[0]!, unit_price: '12,345' }] }, 'create').errors).toEqual({
      'items.0.unit_price': 'Montant en euros, par exemple 1200 ou 49,90.',
    });
  });
});

describe('backoffice queries', () => {
  it('the history joins each generated invoice; another org’s template is not found', async () => {
    const t = await createRecurringTemplate(org.db, org.org.id, RecurringTemplateCreate.parse(templateBody(contact.id, { next_generation_date: '2026-11-30' })));
    expect(await templateHistory(org.db, org.org.id, t.id)).toEqual([]);
    const doc = await runRecurringTemplate(org.db, org.org.id, t.id, new Date('2026-11-26T09:00:00Z'));
    const history = await templateHistory(org.db, org.org.id, t.id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ period_start: '2026-11-30', document_id: doc.id, status: 'generated', source: 'run' });
    expect(history[0]!.invoice).toEqual({ number: null, status: 'draft', issue_date: '2026-11-26', total_ttc: 144000 });
    expect((await getRecurringTemplate(org.db, org.org.id, t.id)).next_generation_date).toBe('2026-12-30');
    await expect(templateHistory(other.db, other.org.id, t.id)).rejects.toBeInstanceOf(ApiError);
  });

  it('contact names are the org’s only; an erased contact has none', async () => {
    const erased = await b.contact({ company: 'Partie SARL' });
    await eraseContact(org.db, org.org.id, erased.id);
    const names = await templateContacts(org.db, org.org.id, [contact.id, erased.id, contact.id]);
    expect(names.get(contact.id)).toEqual({ name: 'Client SARL', deleted: false });
    expect(names.get(erased.id)?.name).toBeNull();
    expect((await templateContacts(other.db, other.org.id, [contact.id])).size).toBe(0);
  });

  it('failure reasons read in French from the catalogue', () => {
    expect(failureText('no_recipient: the contact has no e-mail address; the invoice stays a draft.')).toBe('Aucune adresse e-mail : le client n’en a pas, indiquez-en une.');
    expect(failureText('no_active_mandate: none')).toMatch(/mandat de prélèvement SEPA actif/);
    expect(failureText('debit_failed: insufficient funds')).toMatch(/refusé le prélèvement/);
    expect(failureText('validation_error: contact_id: this contact was erased')).toMatch(/vérifiez son client/);
  });
});
