import { and, asc, eq } from 'drizzle-orm';
import * as retryRoute from '@/app/v1/invoices/[id]/transmission/retry/route';
import { einvoicingLifecycleEvents, einvoicingTransmissions, events } from '@/db/schema';
import { billingContext, documentRow, line } from '@/lib/domain/documents/testing';
import { isValidSiret } from '@/lib/platform/identifiers';
import { renderStoredDocument } from '@/lib/domain/pdf';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { call } from '@/lib/testing/http';
import { tempStorageFixture } from '../inbound/testing';
import { connectToSandbox, sandboxPaFixture } from '../testing';

/** A valid SIRET of a SIREN (its facility 0001, the Luhn key found): contacts take a SIRET, their SIREN follows. */
export function siretOf(siren: string): string {
  for (let k = 0; k < 10; k++) if (isValidSiret(`${siren}0001${k}`)) return `${siren}0001${k}`;
  throw new Error(`no SIRET for ${siren}`);
}

/** The retry route (the real route file). */
export async function retry(org: { key(): Promise<string> } | null, id: string, token?: string) {
  return call(retryRoute.POST, 'POST', `/v1/invoices/${id}/transmission/retry`, { token: token ?? (await org?.key()), params: { id } });
}

/**
 * A sandbox PA (statuses all visible at once) and temporary storage for the file, and `seller()`: an org with
 * e-invoicing on and its PA at the sandbox, with `invoice(buyerSiren)` that issues an invoice to a French company
 * through the API (its scenario is the buyer's SIREN, lib/domain/einvoicing/sandbox/scenarios.ts) and renders its Factur-X.
 */
export function transmissionFixture() {
  const sandbox = sandboxPaFixture({ stepMs: 0 });
  tempStorageFixture();

  async function seller(options: { einvoicing?: boolean } = {}) {
    const org = await createTestOrg();
    await connectToSandbox(org, sandbox.url, { einvoicing_enabled: options.einvoicing ?? true });
    const api = await billingContext(org);
    const clientId = `org-${org.org.id}`;
    return {
      ...org,
      api,
      /** Finalized through the API (not rendered). */
      async issue(buyer: Record<string, unknown> = {}, doc: Record<string, unknown> = {}) {
        const contact = await api.contact(buyer);
        return api.issued({ type: 'facture', contact_id: contact.id, items: [line('Conseil', '2', 45_000, '20')], ...doc });
      },
      /** Finalized and rendered: ready to be submitted. */
      async invoice(buyerSiren = '552032534', doc: Record<string, unknown> = {}) {
        const issued = await this.issue({ siret: siretOf(buyerSiren) }, doc);
        if ((await renderStoredDocument(org.db, org.org.id, issued.id)) !== 'ready') throw new Error('render failed');
        return issued as { id: string; number: string; total_ttc: number; transmission_status: string };
      },
      /** The flows this org submitted to the sandbox. */
      flows: () => sandbox.pa.state.flows.filter((f) => f.tenant === clientId && f.direction === 'Out'),
      /** The document's row with its states (transmission and lifecycle: einvoicing's row), as documents reads it. */
      document: async (id: string) => (await documentRow(org.db, id))!,
      transmission: async (id: string) => (await org.db.select().from(einvoicingTransmissions).where(eq(einvoicingTransmissions.document_id, id)))[0],
      log: (id: string) =>
        org.db
          .select()
          .from(einvoicingLifecycleEvents)
          .where(eq(einvoicingLifecycleEvents.document_id, id))
          .orderBy(asc(einvoicingLifecycleEvents.occurred_at), asc(einvoicingLifecycleEvents.received_at)),
      /** The transmission_status each invoice.transmission_updated of the document carried, in order. */
      async transmissionEvents(id: string) {
        const rows = await org.db.select().from(events).where(and(eq(events.org_id, org.org.id), eq(events.type, 'invoice.transmission_updated'))).orderBy(asc(events.id));
        return rows.map((e) => (e.payload as { object: { id: string; transmission_status: string } }).object).filter((o) => o.id === id).map((o) => o.transmission_status);
      },
    };
  }
  return { sandbox, seller, createTestOrg: (name?: string): Promise<TestOrg> => createTestOrg(name) };
}
export type Seller = Awaited<ReturnType<ReturnType<typeof transmissionFixture>['seller']>>;
