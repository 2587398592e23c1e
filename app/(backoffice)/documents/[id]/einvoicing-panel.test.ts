import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { connectorForOrg, pollLifecycle, submitTransmission } from '@/lib/domain/einvoicing';
import { type Seller, transmissionFixture } from '@/lib/domain/einvoicing/transmission/testing';
import { UNKNOWN_BUYER_SIREN } from '@/lib/domain/einvoicing/testing';
import { EInvoicingPanel } from './einvoicing-panel';

/* The « Facturation électronique » panel as staff see it, for the states that matter (sandbox PA in-process). */

const { seller } = transmissionFixture();

async function panel(org: Seller, id: string) {
  const doc = org.api.expectStatus(await org.api.get(id), 200, 'get');
  const element = await EInvoicingPanel({ db: org.db, orgId: org.org.id, doc });
  return element ? renderToStaticMarkup(element) : '';
}

describe('« Facturation électronique » on the document page', () => {
  it('a transmitted invoice the PA rejected: flow id, the red Rejetée with its reason, the timeline', async () => {
    const org = await seller();
    const doc = await org.invoice('213000003');
    await submitTransmission(org.db, org.org.id, doc.id);
    await pollLifecycle(org.db, org.org.id, await connectorForOrg(org.db, org.org.id));
    const html = await panel(org, doc.id);
    const row = await org.document(doc.id);
    expect(html).toContain('aria-label="Facturation électronique"');
    expect(html).toContain('>Transmise<');
    expect(html).toContain(`<code>${row.transmission_id}</code>`);
    expect(html).toMatch(/class="chip chip-red" data-testid="lifecycle-status">Rejetée</);
    expect(html).toContain('REJ_SEMAN');
    expect(html).toContain('aria-label="Cycle de vie de la facture électronique"');
    expect(html).toContain('213 Rejetée');
    expect(html).toContain('Votre plateforme');
    expect(html).not.toContain('Relancer la transmission');
    // A transmitted invoice can ask the PA now (« Actualiser »), a failed one cannot.
    expect(html).toContain('>Actualiser<');
  });

  it('a failed transmission: the reason and the retry button', async () => {
    const org = await seller();
    const doc = await org.invoice(UNKNOWN_BUYER_SIREN);
    await submitTransmission(org.db, org.org.id, doc.id);
    const html = await panel(org, doc.id);
    expect(html).toContain('>Échec<');
    expect(html).toContain('Client inconnu de l’annuaire : SIREN 404000002');
    expect(html).toContain('Relancer la transmission');
    expect(html).not.toContain('>Actualiser<');
  });

  it('a document that does not travel says so', async () => {
    const org = await seller({ einvoicing: false });
    const doc = await org.issue();
    expect(await panel(org, doc.id)).toContain('Non concernée');
  });
});
