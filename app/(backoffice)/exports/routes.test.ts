import { beforeAll, describe, expect, it } from 'vitest';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { currentMonth } from '@/lib/domain/exports';
import { completeSeller } from '@/lib/domain/pdf/testing';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';

import { documentsDownload, fecDownload, linesDownload, paymentsDownload } from './download';

let org: TestOrg;
let number: string;
const month = currentMonth();
const url = (path: string, q: Record<string, string> = month) => new Request(`http://test/exports/${path}?${new URLSearchParams(q)}`);
// Each route is `download(await requireStaffOrg(), request)`: the downloads run here for the test's org, on its database.
const staff = () => ({ db: org.db, orgId: org.org.id });
const fec = (request: Request) => fecDownload(staff(), request);
const documentsCsv = (request: Request) => documentsDownload(staff(), request);
const linesCsv = (request: Request) => linesDownload(staff(), request);
const paymentsCsv = (request: Request) => paymentsDownload(staff(), request);

beforeAll(async () => {
  org = await createTestOrg();
  const api = await completeSeller(org);
  const contact = (await api.contact()).id;
  number = (await api.issued({ type: 'facture', contact_id: contact, items: [line('Conseil', '1', 10_000, '20')] })).number;
  await (await billingContext(org)).draft({ type: 'facture', contact_id: contact, items: [line('Brouillon', '1', 100, '20')] });
});

describe('the export downloads', () => {
  it('give the FEC as an attachment named after the SIREN and the period’s end', async () => {
    const res = await fec(url('fec'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="732829320FEC${month.to.replaceAll('-', '')}.txt"`);
    const text = await res.text();
    expect(text.split('\r\n')[0]).toMatch(/^JournalCode\tJournalLib\t/);
    expect(text).toContain(number);
  });

  it('give the documents, lines and payments CSVs of the period, drafts aside', async () => {
    const docs = await documentsCsv(url('documents.csv'));
    expect(docs.headers.get('content-disposition')).toBe(`attachment; filename="documents-${month.from}-${month.to}.csv"`);
    const text = await docs.text();
    expect(text).toContain(number);
    expect(text.trim().split('\r\n')).toHaveLength(2);
    expect(await (await linesCsv(url('lignes.csv'))).text()).toContain('Conseil');
    expect((await paymentsCsv(url('paiements.csv'))).headers.get('content-type')).toBe('text/csv; charset=utf-8');
  });

  it('refuse a period that is none', async () => {
    expect((await fec(url('fec', { from: '2026-02-01', to: '2026-01-01' }))).status).toBe(422);
    expect((await linesCsv(url('lignes.csv', { from: 'hier' , to: '2026-01-01' }))).status).toBe(422);
  });
});
