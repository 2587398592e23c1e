import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineTotalHt } from '@/lib/platform/money';
import { allowanceChargeLabel, allowancesChargesSum } from './allowances';
import { parseInboundInvoice } from './parse-inbound-invoice';
import { renderInboundPdf } from './render-inbound-pdf';
import { pdfText } from './testing';
import type { InboundFields } from './types';

const SAMPLE = path.join(import.meta.dirname, 'fixtures/samples/factur-x-en16931.xml');

async function fields(bytes: Uint8Array): Promise<InboundFields> {
  const result = await parseInboundInvoice(bytes);
  if (result.status !== 'parsed') throw new Error(JSON.stringify(result.error));
  return result.fields;
}

describe('a received invoice’s allowances and charges add up to its totals (issue 35, item 14)', () => {
  it('the Factur-X EN 16931 sample: document-level allowances and charges (BG-20, BG-21) read to the cent', async () => {
    const f = await fields(readFileSync(SAMPLE));
    expect([f.line_total, f.allowance_total, f.charge_total, f.total_ht]).toEqual([9500, 900, 1400, 10000]);
    expect(f.allowances_charges).toHaveLength(8);
    expect(f.allowances_charges![0]).toEqual({ charge: false, amount: 500, reason: 'REMISE COMMERCIALE', reason_code: '95', percentage: '5', vat_category: 'S', vat_rate: '20.00' });
    expect(f.allowances_charges!.filter((a) => !a.charge).reduce((s, a) => s + a.amount, 0)).toBe(f.allowance_total);
    expect(f.allowances_charges!.filter((a) => a.charge).reduce((s, a) => s + a.amount, 0)).toBe(f.charge_total);
    // BR-CO-10 and BR-CO-13: Σ line nets = BT-106; BT-106 − allowances + charges = the total HT shown.
    const lines = f.lines.reduce((s, l) => s + l.total_ht, 0);
    expect(lines).toBe(9500);
    expect(lines + allowancesChargesSum(f.allowances_charges)).toBe(f.total_ht);
    // Per VAT group: its lines and the document-level amounts at its rate make its base (BR-S-08).
    for (const g of f.vat_groups) {
      const atRate = <T extends { vat_category: string | null; vat_rate: string | null }>(x: T) => x.vat_category === g.category && x.vat_rate === g.rate;
      expect(f.lines.filter(atRate).reduce((s, l) => s + l.total_ht, 0) + allowancesChargesSum(f.allowances_charges!.filter(atRate))).toBe(g.base);
    }
  });

  it('line-level allowances and charges (BG-27, BG-28): quantity × net price − allowances + charges = each line’s total', async () => {
    const f = await fields(readFileSync(SAMPLE));
    expect(f.lines.map((l) => (l.allowances_charges ?? []).length)).toEqual([8, 7, 0]);
    for (const l of f.lines) {
      expect(lineTotalHt(l.quantity!, Math.round(Number(l.unit_price) * 100)) + allowancesChargesSum(l.allowances_charges)).toBe(l.total_ht);
    }
    expect(f.lines[0]!.allowances_charges![0]).toEqual({ charge: false, amount: 100, reason: 'REMISE VOLUME', reason_code: '71', percentage: '1', vat_category: null, vat_rate: null });
    expect(allowanceChargeLabel(f.lines[0]!.allowances_charges![0]!)).toBe('Remise : REMISE VOLUME (1 %)');
    expect(allowanceChargeLabel(f.allowances_charges![3]!)).toBe('Remise : REMISE COMMERCIALE (2 %, TVA 10 %)');
    expect(allowanceChargeLabel({ charge: true, amount: 100, reason: null, reason_code: 'FC', percentage: null, vat_category: 'S', vat_rate: '20.00' })).toBe('Frais : code FC (TVA 20 %)');
  });

  it('a UBL invoice: document-level AllowanceCharge and a line’s, not the price’s own (BT-147)', async () => {
    const xml = readFileSync(path.join(import.meta.dirname, 'fixtures/ubl-invoice.xml'), 'utf8')
      .replace(
        '<cac:TaxTotal>',
        `<cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode>95</cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Remise fidélité</cbc:AllowanceChargeReason><cbc:Amount currencyID="EUR">12.34</cbc:Amount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:AllowanceCharge>
        <cac:AllowanceCharge><cbc:ChargeIndicator>true</cbc:ChargeIndicator><cbc:AllowanceChargeReason>Transport</cbc:AllowanceChargeReason><cbc:Amount currencyID="EUR">5.00</cbc:Amount><cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>20</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:AllowanceCharge>
        <cac:TaxTotal>`,
      )
      .replace('<cbc:TaxExclusiveAmount currencyID="EUR">1599.50</cbc:TaxExclusiveAmount>', '<cbc:AllowanceTotalAmount currencyID="EUR">12.34</cbc:AllowanceTotalAmount><cbc:ChargeTotalAmount currencyID="EUR">5.00</cbc:ChargeTotalAmount><cbc:TaxExclusiveAmount currencyID="EUR">1592.16</cbc:TaxExclusiveAmount>');
    const f = await fields(new TextEncoder().encode(xml));
    expect(f.allowances_charges!.map((a) => [a.charge, a.amount, a.reason, a.vat_rate])).toEqual([
      [false, 1234, 'Remise fidélité', '20.00'],
      [true, 500, 'Transport', '20.00'],
    ]);
    expect([f.allowance_total, f.charge_total, f.total_ht]).toEqual([1234, 500, 159216]);
    expect(f.lines.reduce((s, l) => s + l.total_ht, 0) + allowancesChargesSum(f.allowances_charges)).toBe(f.total_ht);
  });

  it('the readable PDF prints each of them, so that its column adds up to the total HT', async () => {
    const f = await fields(readFileSync(SAMPLE));
    const text = await pdfText(await renderInboundPdf(f, { format: 'cii' }));
    for (const expected of ['Remise : REMISE VOLUME (1 %) (-1,00 €)', 'Frais : FRAIS PALETTE (1,00 €)', 'Total des lignes 95,00 €', 'Remise : REMISE COMMERCIALE (5 %, TVA 20 %) -5,00 €', 'Frais : FRAIS DEPLACEMENT (10 %, TVA 20 %) 10,00 €', 'Total HT 100,00 €']) {
      expect(text).toContain(expected);
    }
  });
});
