import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentItems, documents } from '@/db/schema';
import { readStoredPdf, renderStoredDocument } from '@/lib/domain/pdf';
import { completeSeller, documentsOfEveryKind } from '@/lib/domain/pdf/testing';
import { LocalStorage, setStorage } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import { parseInboundInvoice } from './parse-inbound-invoice';
import type { InboundParseResult } from './types';

/**
 * What a supplier using Paraphe sends is what a Paraphe buyer reads: every kind of finalized document our renderer
 * makes (multi-rate with discounts, each 0 % basis, consumer, deposit, final invoice deducting it, credit notes) →
 * its stored Factur-X PDF → parseInboundInvoice → the document's own number, dates and totals, to the cent.
 */
describe('Factur-X PDFs rendered by Paraphe parse back to their documents', () => {
  let dir: string;
  let org: TestOrg;
  let docs: Record<string, string>;
  const results = new Map<string, InboundParseResult>();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'paraphe-inbound-'));
    setStorage(new LocalStorage(dir));
    org = await createTestOrg();
    docs = await documentsOfEveryKind(org, await completeSeller(org));
    for (const [name, id] of Object.entries(docs)) {
      expect(await renderStoredDocument(org.db, org.org.id, id)).toBe('ready');
      const pdf = await readStoredPdf(org.db, org.org.id, id);
      results.set(name, await parseInboundInvoice(pdf!.content, { filename: pdf!.filename, mime: 'application/pdf' }));
    }
  }, 240_000);

  afterAll(async () => {
    setStorage(undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('every invoice, deposit invoice and credit note: number, dates, seller and totals equal the stored document', async () => {
    const ids = Object.values(docs);
    const rows = await org.db.select().from(documents).where(and(eq(documents.org_id, org.org.id), inArray(documents.id, ids)));
    const items = await org.db.select().from(documentItems).where(inArray(documentItems.document_id, ids));
    let compared = 0;
    for (const [name, id] of Object.entries(docs)) {
      const doc = rows.find((r) => r.id === id)!;
      if (doc.type === 'devis') continue;
      const result = results.get(name)!;
      if (result.status !== 'parsed') throw new Error(`${name}: ${JSON.stringify(result.error)}`);
      const sign = (cents: number) => (doc.type === 'avoir' && cents !== 0 ? -cents : cents);
      expect(result.format, name).toBe('facturx');
      expect(result.fields, name).toMatchObject({
        invoice_number: doc.number,
        document_type: doc.type === 'avoir' ? 'credit_note' : 'invoice',
        issue_date: doc.issue_date,
        due_date: doc.type === 'avoir' ? null : doc.due_date,
        currency: 'EUR',
        seller_name: 'Atelier Paraphe SAS',
        sender_siren: '732829320',
        seller_siret: '73282932000074',
        total_ht: sign(doc.total_ht),
        total_vat: sign(doc.total_tva),
        total_ttc: sign(doc.total_ttc),
      });
      // Product lines become CII lines (discounts are document-level allowances): same nets, same order.
      const products = items.filter((i) => i.document_id === id && i.kind !== 'discount').sort((a, b) => a.position - b.position);
      expect(
        result.fields.lines.map((l) => [l.description, l.total_ht]),
        name,
      ).toEqual(products.map((i) => [i.description, sign(i.total_ht)]));
      compared++;
    }
    expect(compared).toBe(Object.keys(docs).length - 1);
  });

  it('a quote carries no e-invoice: its PDF is refused as not an invoice', () => {
    const quote = results.get('devis')!;
    expect(quote.status === 'parse_failed' && quote.error.code).toBe('pdf_no_invoice_attachment');
  });
});
