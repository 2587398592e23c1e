import { describe, expect, it } from 'vitest';
import { hasLiveJob } from '@/lib/platform/jobs';
import { UNKNOWN_BUYER_SIREN } from '../testing';
import { submitTransmissionJob } from './jobs';
import { submitTransmission } from './submit';
import { retry, transmissionFixture } from './testing';

/* POST /v1/invoices/{id}/transmission/retry: authenticated, scoped (invoice:write), org-isolated, its refusals. */

const { seller } = transmissionFixture();

describe('POST /v1/invoices/{id}/transmission/retry', () => {
  it('puts a failed transmission back to pending with a fresh job (200); the reason is cleared', async () => {
    const org = await seller();
    const doc = await org.invoice(UNKNOWN_BUYER_SIREN);
    expect(await submitTransmission(org.db, org.org.id, doc.id)).toBe('failed');
    const res = await retry(org, doc.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: doc.id, transmission_status: 'pending', transmission_id: null });
    expect(await org.transmission(doc.id)).toMatchObject({ status: 'pending', last_error: null, attempts: 0 });
    expect(await hasLiveJob(org.db, submitTransmissionJob, { org_id: org.org.id, document_id: doc.id })).toBe(true);
    expect(await org.transmissionEvents(doc.id)).toEqual(['pending', 'failed', 'pending']);
  });

  it('401 without a key, 403 without invoice:write, 404 for another org’s document or an unknown id', async () => {
    const org = await seller();
    const doc = await org.invoice(UNKNOWN_BUYER_SIREN);
    expect((await retry(null, doc.id)).status).toBe(401);
    const readOnly = await org.key(['invoice:read']);
    const forbidden = await retry(null, doc.id, readOnly);
    expect(forbidden.status).toBe(403);
    const other = await seller();
    const res = await retry(other, doc.id);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await retry(org, '0194a000-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await org.document(doc.id)).transmission_status).toBe('pending');
  });

  it('409 while pending, sending or sent; 409 einvoicing_not_configured when the org does not transmit', async () => {
    const org = await seller();
    const doc = await org.invoice();
    const pending = await retry(org, doc.id);
    expect(pending.status).toBe(409);
    expect(pending.body).toMatchObject({ code: 'transmission_not_failed', field: 'transmission_status' });
    expect(await submitTransmission(org.db, org.org.id, doc.id)).toBe('sent');
    expect((await retry(org, doc.id)).body.code).toBe('transmission_not_failed');
    const optedOut = await seller({ einvoicing: false });
    const local = await optedOut.issue();
    const res = await retry(optedOut, local.id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('einvoicing_not_configured');
  });

  it('422 for what never goes through the PA: a quote, a draft, a private buyer', async () => {
    const org = await seller();
    const contact = await org.api.contact();
    const quote = await org.api.draft({ type: 'devis', contact_id: contact.id, items: [{ description: 'Étude', quantity: '1', unit_price: 10_000, vat_rate: '20' }] });
    const draft = await org.api.draft({ type: 'facture', contact_id: contact.id, items: [{ description: 'Étude', quantity: '1', unit_price: 10_000, vat_rate: '20' }] });
    await org.api.finalize(quote.id);
    const individual = await org.issue({ type: 'particulier', siret: null, company: null, first_name: 'Jeanne', last_name: 'Martin' });
    for (const id of [quote.id, draft.id, individual.id]) {
      const res = await retry(org, id);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('einvoicing_not_applicable');
    }
  });
});
