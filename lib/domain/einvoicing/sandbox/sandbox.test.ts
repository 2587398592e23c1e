import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { AfnorConnector } from '../afnor/connector';
import { forgetTokens } from '../afnor/http';
import { buildCdar } from '../lifecycle/cdar';
import type { PaError } from '../port';
import { ciiInvoice, SANDBOX_SECRET, UNKNOWN_BUYER_SIREN, sandboxPaFixture } from '../testing';

/*
 * The sandbox PA's Directory service (through the AFNOR connector), its delivery between clients, and its admin API
 * (injected received invoices, switches, state, reset). The Flow scenarios: ../afnor/connector.test.ts.
 */

const sandbox = sandboxPaFixture();
const connector = (clientId: string) => new AfnorConnector({ provider: 'afnor', base_url: sandbox.url, token_url: null, client_id: clientId, client_secret: SANDBOX_SECRET });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const admin = (path: string, init: RequestInit = {}) => fetch(`${sandbox.url}/sandbox/${path}`, init);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

beforeEach(() => {
  sandbox.pa.state.reset();
  forgetTokens();
});

describe('sandbox PA — Directory service', () => {
  it('any company is in the directory (Enabled, 0225:<SIREN>) except the unknown buyer; a SIRET falls back to its SIREN’s line', async () => {
    const pa = connector('a');
    expect(await pa.lookup({ siren: '987654321' })).toEqual({
      siren: '987654321',
      siret: null,
      routingCode: null,
      addressingIdentifier: '987654321',
      electronicAddress: '0225:987654321',
      platformStatus: 'Enabled',
      idInstance: null,
    });
    expect((await pa.lookup({ siren: '987654321', siret: '98765432100015' }))?.electronicAddress).toBe('0225:987654321');
    expect(await pa.lookup({ siren: UNKNOWN_BUYER_SIREN })).toBeNull();
  });

  it('registers a line Enabled at once (active), idempotent for its owner, refused to another client', async () => {
    const pa = connector('a');
    const line = await pa.registerDirectoryLine({ siren: '732829320', siret: '73282932000074', dateFrom: '2026-11-26' });
    expect(line).toMatchObject({ status: 'active', platformStatus: 'Enabled', addressingIdentifier: '732829320_73282932000074', electronicAddress: '0225:732829320_73282932000074', dateFrom: '2026-11-26' });
    expect((await pa.registerDirectoryLine({ siren: '732829320', siret: '73282932000074', dateFrom: '2026-11-26' })).idInstance).toBe(line.idInstance);
    expect(await pa.getDirectoryLine(line.idInstance)).toEqual(line);
    const taken = (await failure(connector('b').registerDirectoryLine({ siren: '732829320', siret: '73282932000074', dateFrom: '2026-11-26' }))) as PaError;
    expect([taken.kind, taken.status, taken.code]).toEqual(['rejected', 422, 'ALREADY_REGISTERED']);
    expect(await connector('b').getDirectoryLine(line.idInstance)).toBeNull();
    expect((await connector('b').lookup({ siren: '732829320', siret: '73282932000074' }))?.addressingIdentifier).toBe('732829320_73282932000074');
  });

  it('with a routing code: creates the routing code first, then the SIREN_SIRET_ROUTINGCODE line', async () => {
    const line = await connector('a').registerDirectoryLine({ siren: '732829320', siret: '73282932000074', routingCode: 'COMPTA', dateFrom: '2026-11-26' });
    expect([line.addressingIdentifier, line.routingCode]).toEqual(['732829320_73282932000074_COMPTA', 'COMPTA']);
    const refused = (await failure(connector('a').registerDirectoryLine({ siren: '732829320', routingCode: 'X', dateFrom: '2026-11-26' }))) as PaError;
    expect(refused.kind).toBe('rejected');
  });

  it('SIREN 202000006: pending (Disabled), Enabled when next read; 501000004: pending, then withdrawn (null); 422000000: refused with a reason', async () => {
    const pa = connector('a');
    const pending = await pa.registerDirectoryLine({ siren: '202000006', dateFrom: '2026-11-26' });
    expect([pending.status, pending.platformStatus]).toEqual(['pending', 'Disabled']);
    expect((await pa.getDirectoryLine(pending.idInstance))?.status).toBe('active');
    const withdrawn = await pa.registerDirectoryLine({ siren: '501000004', dateFrom: '2026-11-26' });
    expect(withdrawn.status).toBe('pending');
    expect(await pa.getDirectoryLine(withdrawn.idInstance)).toBeNull();
    const refused = (await failure(pa.registerDirectoryLine({ siren: '422000000', dateFrom: '2026-11-26' }))) as PaError;
    expect([refused.kind, refused.status, refused.code]).toEqual(['rejected', 422, 'SIREN_NOT_ELIGIBLE']);
    // The annex's errorCode is the reason staff read; the PA's free text is never echoed.
    expect(refused.message).toMatch(/HTTP 422, errorCode SIREN_NOT_ELIGIBLE/);
    expect(refused.message).not.toMatch(/not eligible to the directory/);
  });
});

describe('sandbox PA — between its clients, and its admin API', () => {
  it('an invoice to a company enrolled in this sandbox is delivered to it (an In SupplierInvoice flow), its answer goes back to the seller', async () => {
    const seller = connector('seller');
    const buyer = connector('buyer');
    await buyer.registerDirectoryLine({ siren: '552032534', dateFrom: '2026-11-26' });
    const file = ciiInvoice({ number: 'F-77', buyerSiren: '552032534', sellerSiren: '732829320' });
    await seller.submitFlow(file, sha(file), { trackingId: 't-77', name: 'F-77.xml', syntax: 'CII' });
    const [received] = await buyer.searchFlows({ flowTypes: ['SupplierInvoice'], directions: ['In'] });
    expect(received).toMatchObject({ flowType: 'SupplierInvoice', direction: 'In', syntax: 'CII', trackingId: null });
    expect((await buyer.getFlow(received!.flowId)).file.equals(file)).toBe(true);

    const refusal = Buffer.from(
      buildCdar({
        messageId: 'BUYER-1',
        code: '210',
        reasonCode: 'TX_TVA_ERR',
        reason: 'Taux de TVA erroné',
        issuerRole: 'buyer',
        issuedAt: new Date().toISOString(),
        invoice: { number: 'F-77', issueDate: null, sellerSiren: '732829320', typeCode: '380' },
        amount: null,
      }),
    );
    await buyer.submitFlow(refusal, sha(refusal), { trackingId: 'answer-77', name: 'answer.xml', syntax: 'CDAR' });
    const lcs = await seller.searchFlows({ flowTypes: ['CustomerInvoiceLC'], directions: ['In'], limit: 100 });
    const last = await seller.getFlow(lcs.at(-1)!.flowId);
    expect(last.file.equals(refusal)).toBe(true);
  });

  it('injects received invoices — CII, UBL, Factur-X PDF — for the client whose line routes to the SIREN; 404 when none does', async () => {
    const pa = connector('org');
    await pa.registerDirectoryLine({ siren: '732829320', dateFrom: '2026-11-26' });
    const ubl = readFileSync('lib/domain/einvoicing/parse/fixtures/ubl-invoice.xml');
    const pdf = Buffer.from('%PDF-1.7\n…\n%%EOF\n');
    const inject = async (body: Buffer, type: string) => {
      const res = await admin('inbound?to=732829320&name=received', { method: 'POST', headers: { 'content-type': type }, body: new Uint8Array(body) });
      return { status: res.status, body: (await res.json()) as { flowId: string; flowSyntax: string; tenant: string } };
    };
    const injected = [await inject(ciiInvoice(), 'application/xml'), await inject(ubl, 'application/xml'), await inject(pdf, 'application/pdf')];
    expect(injected.map((r) => [r.status, r.body.flowSyntax, r.body.tenant])).toEqual([
      [201, 'CII', 'org'],
      [201, 'UBL', 'org'],
      [201, 'Factur-X', 'org'],
    ]);
    const flows = await pa.searchFlows({ flowTypes: ['SupplierInvoice'], directions: ['In'] });
    expect(flows.map((f) => f.flowId)).toEqual(injected.map((r) => r.body.flowId));
    const got = await pa.getFlow(injected[2]!.body.flowId);
    expect([got.file.equals(pdf), got.contentType]).toEqual([true, 'application/pdf']);
    const nobody = await admin('inbound?to=987654321', { method: 'POST', body: new Uint8Array(ciiInvoice()) });
    expect(nobody.status).toBe(404);
  });

  it('switches: down and back up, then reset forgets everything', async () => {
    const pa = connector('a');
    await pa.registerDirectoryLine({ siren: '732829320', dateFrom: '2026-11-26' });
    const down = await admin('switches', { method: 'POST', body: JSON.stringify({ down: true }) });
    expect(await down.json()).toMatchObject({ down: true, slowMs: 0 });
    expect(((await failure(pa.lookup({ siren: '987654321' }))) as PaError).kind).toBe('server');
    await admin('switches', { method: 'POST', body: JSON.stringify({ down: false }) });
    expect(await pa.lookup({ siren: '987654321' })).not.toBeNull();
    const state = (await (await admin('state')).json()) as { lines: unknown[] };
    expect(state.lines).toHaveLength(1);
    expect((await admin('reset', { method: 'POST' })).status).toBe(204);
    expect(((await (await admin('state')).json()) as { lines: unknown[] }).lines).toEqual([]);
  });
});
