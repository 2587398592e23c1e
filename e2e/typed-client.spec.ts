import { expect, test } from '@playwright/test';
import { createParapheClient, ParapheError, paginate, unwrap } from '../clients/typescript/src';
import { rememberSecret, signIn } from './helpers';

/**
 * The typed client (clients/typescript, docs/api-clients.md) as an integrator uses it, against the built app: a key made
 * in Réglages → Clés API, then contact → quote → accepted → invoice → finalized → paid, the list walked page by page
 * with its cursor, and a refusal read through its typed code. Strict types, no casts: tsc checks this file in CI.
 */
test('an integration written with the typed client: contact → quote → invoice → finalize → payment, a cursor walk, a typed error', async ({ page, baseURL }) => {
  await signIn(page);
  await page.goto('/settings/api-keys');
  await page.getByLabel('Nom').fill('Typed client');
  await page.getByLabel('Écriture des contacts').check();
  await page.getByLabel('Écriture des factures et devis').check();
  await page.getByRole('button', { name: 'Créer la clé' }).click();
  const apiKey = (await page.getByTestId('new-key-value').textContent())!.trim();
  rememberSecret(apiKey);

  const paraphe = createParapheClient({ apiKey, baseUrl: baseURL! });

  const contact = await unwrap(
    paraphe.POST('/v1/contacts', {
      body: { company: 'Atelier Typé SARL', siret: '55203253400646', address: '1 rue du Client', postal_code: '69001', city: 'Lyon', email: 'compta@atelier-type.test' },
    }),
  );
  expect(contact.company).toBe('Atelier Typé SARL');

  const items = [{ description: 'Intégration API', quantity: '3', unit_price: 40_000, vat_rate: '20' }];
  const draftQuote = await unwrap(paraphe.POST('/v1/invoices', { body: { type: 'devis', contact_id: contact.id, operation_nature: 'services', items } }));
  const quote = await unwrap(paraphe.POST('/v1/invoices/{id}/finalize', { params: { path: { id: draftQuote.id } } }));
  expect(quote.number).toMatch(/^DEV-\d{4}-\d{5}$/);
  await unwrap(paraphe.POST('/v1/invoices/{id}/accept', { params: { path: { id: quote.id } } }));

  const draftInvoice = await unwrap(paraphe.POST('/v1/invoices/{id}/convert-to-facture', { params: { path: { id: quote.id } } }));
  expect(draftInvoice).toMatchObject({ type: 'facture', status: 'draft', converted_from_id: quote.id });
  const invoice = await unwrap(paraphe.POST('/v1/invoices/{id}/finalize', { params: { path: { id: draftInvoice.id } } }));
  expect(invoice.number).toMatch(/^FAC-\d{4}-\d{5}$/);
  expect(invoice.total_ttc).toBe(144_000);

  const paid = await unwrap(paraphe.POST('/v1/invoices/{id}/payments', { params: { path: { id: invoice.id } }, body: { amount: invoice.total_ttc, method: 'bank_transfer' } }));
  expect([paid.payment?.amount, paid.remaining_due, paid.status]).toEqual([144_000, 0, 'paid']);
  expect((await unwrap(paraphe.GET('/v1/invoices/{id}', { params: { path: { id: invoice.id } } }))).status).toBe('paid');

  // The contact's documents, one per page: the cursor walk meets both, newest first.
  const walked: string[] = [];
  const pages = paginate((cursor) => unwrap(paraphe.GET('/v1/invoices', { params: { query: { contact_id: contact.id, limit: 1, cursor } } })));
  for await (const doc of pages) walked.push(doc.id);
  expect(walked).toEqual([invoice.id, quote.id]);

  // Finalizing twice is refused; the error's code is one of the codes finalizeInvoice declares (a union type).
  const again = await paraphe.POST('/v1/invoices/{id}/finalize', { params: { path: { id: invoice.id } } });
  expect(again.response.status).toBe(409);
  type FinalizeCode = NonNullable<typeof again.error>['code'];
  const expected: FinalizeCode = 'already_finalized';
  // @ts-expect-error: not a code finalizeInvoice declares (were `code` a plain string, tsc would fail here)
  const unknown: FinalizeCode = 'no_such_code';
  expect(again.error?.code).toBe(expected);
  expect(unknown).toBeTruthy();
  const refused = await unwrap(paraphe.POST('/v1/invoices/{id}/finalize', { params: { path: { id: invoice.id } } })).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ParapheError);
  if (!(refused instanceof ParapheError)) return;
  expect([refused.status, refused.code]).toEqual([409, 'already_finalized']);
  expect(refused.requestId).toMatch(/^[0-9a-f-]{36}$/);

  // A POST retried with its Idempotency-Key is answered again, not done twice (the client sets one on every POST).
  const key = `typed-client-${invoice.id}`;
  const remind = () => paraphe.POST('/v1/contacts', { body: { company: 'Une seule fois SAS' }, params: { header: { 'Idempotency-Key': key } } });
  const [first, second] = [await remind(), await remind()];
  expect(second.data?.id).toBe(first.data?.id);
  expect(second.response.headers.get('Idempotent-Replayed')).toBe('true');
});
