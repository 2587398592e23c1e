import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { einvoicingPollCursors, events, inboundInvoices } from '@/db/schema';
import { getStorage, readAll, setStorage, sha256Hex, type ObjectStorage } from '@/lib/platform/storage';
import { connectorForOrg } from '../connector';
import { pdfText } from '../parse/testing';
import { ciiInvoice } from '../testing';
import { hasLiveJob } from '@/lib/platform/jobs';
import { createTestOrg } from '@/lib/testing/fixtures';
import { fetchableOrgs, fetchInbound } from './fetch';
import { enqueueInboundFetches, fetchInboundJob } from './jobs';
import { fixture, ownFacturX, type Receiver, sample, inboxFixture } from './testing';
import { originalKey } from './view';

const { sandbox, receiver } = inboxFixture();

const rowsOf = (org: Receiver) => org.db.select().from(inboundInvoices).where(eq(inboundInvoices.org_id, org.org.id));
const receivedEvents = (org: Receiver) => org.db.select().from(events).where(and(eq(events.org_id, org.org.id), eq(events.type, 'inbound_invoice.received')));
const fetchFor = async (org: Receiver) => fetchInbound(org.db, org.org.id, await connectorForOrg(org.db, org.org.id));
const stored = async (key: string) => readAll((await getStorage().get(key))!.body);

const XXE = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">&x;</rsm:CrossIndustryInvoice>`;
const LAUGHS = `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><l>&c;&c;&c;</l>`;

describe('fetching the flows addressed to the org: CII, UBL, Factur-X and hostile files', () => {
  let org: Receiver;
  let own: Awaited<ReturnType<typeof ownFacturX>>;
  const files: Record<string, { flowId: string; bytes: Uint8Array }> = {};

  beforeAll(async () => {
    org = await receiver();
    own = await ownFacturX();
    const inject = (name: string, bytes: Uint8Array, syntax: 'CII' | 'UBL' | 'Factur-X') => {
      files[name] = { flowId: org.inject(bytes, syntax), bytes };
    };
    inject('cii', ciiInvoice({ number: 'FR-CII-1', sellerSiren: '552032534' }), 'CII');
    inject('basic', await sample('factur-x-basic.xml'), 'CII');
    inject('ubl', await fixture('ubl-invoice.xml'), 'UBL');
    inject('ubl-credit', await fixture('ubl-credit-note.xml'), 'UBL');
    inject('facturx', own.pdf, 'Factur-X');
    inject('xxe', Buffer.from(XXE), 'CII');
    inject('laughs', Buffer.from(LAUGHS), 'CII');
    inject('truncated', ciiInvoice().subarray(0, 900), 'CII');
    inject('garbage-pdf', Buffer.from('%PDF-1.7\n garbage that is no PDF at all'), 'Factur-X');
  }, 120_000);

  it('stores every original with its SHA-256, creates one row per flow and parses it: parsed or parse_failed, never lost', { timeout: 120_000 }, async () => {
    expect(await fetchFor(org)).toEqual({ created: 9, existing: 0, repaired: 0, skipped: 0 });
    const rows = await rowsOf(org);
    expect(rows).toHaveLength(9);
    const by = (name: string) => rows.find((r) => r.flow_id === files[name]!.flowId)!;
    for (const [name, { bytes, flowId }] of Object.entries(files)) {
      const row = by(name);
      expect(row.storage_key, name).toBe(originalKey(org.org.id, flowId));
      expect(row.sha256, name).toBe(sha256Hex(bytes));
      expect(row.byte_size, name).toBe(bytes.length);
      expect(Buffer.compare(await stored(row.storage_key), Buffer.from(bytes)), name).toBe(0);
      expect(row.received_at, name).toBeInstanceOf(Date);
      expect(row.imported_at, name).toBeInstanceOf(Date);
    }
    expect(by('cii')).toMatchObject({ parse_status: 'parsed', format: 'cii', invoice_number: 'FR-CII-1', sender_siren: '552032534', currency: 'EUR', parse_error: null });
    expect(by('basic')).toMatchObject({ parse_status: 'parsed', format: 'cii' });
    expect(by('ubl')).toMatchObject({ parse_status: 'parsed', format: 'ubl' });
    expect(by('ubl-credit')).toMatchObject({ parse_status: 'parsed', format: 'ubl' });
    expect(by('ubl-credit').total_ttc).toBeLessThan(0);
    expect(by('facturx')).toMatchObject({ parse_status: 'parsed', format: 'facturx', invoice_number: own.number, total_ttc: own.totalTtc, total_ht: 102_000, total_vat: 19_200 });
    for (const name of ['xxe', 'laughs', 'truncated', 'garbage-pdf']) {
      expect(by(name).parse_status, name).toBe('parse_failed');
      expect(by(name).parse_error, name).toMatch(/.{20,}/);
      expect(by(name).invoice_number, name).toBeNull();
    }
    expect((by('xxe').parsed as { error_code: string }).error_code).toBe('dtd_refused');
    expect((by('truncated').parsed as { error_code: string }).error_code).toBe('malformed_xml');
  });

  it('gives each a readable PDF: a PDF is its own, an XML that parsed gets one rendered, one that did not has none', async () => {
    const rows = await rowsOf(org);
    const by = (name: string) => rows.find((r) => r.flow_id === files[name]!.flowId)!;
    expect(by('facturx').pdf_storage_key).toBe(by('facturx').storage_key);
    expect(by('garbage-pdf').pdf_storage_key).toBe(by('garbage-pdf').storage_key);
    for (const name of ['xxe', 'laughs', 'truncated']) expect(by(name).pdf_storage_key, name).toBeNull();
    for (const name of ['cii', 'ubl']) {
      const row = by(name);
      expect(row.pdf_storage_key, name).toMatch(/\/readable\.pdf$/);
      const pdf = await stored(row.pdf_storage_key!);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(await pdfText(pdf)).toContain(row.invoice_number!);
    }
  });

  it('emits inbound_invoice.received once per invoice, with the API shape', async () => {
    const written = await receivedEvents(org);
    expect(written).toHaveLength(9);
    const objects = written.map((e) => (e.payload as { object: Record<string, unknown> }).object);
    expect(new Set(objects.map((o) => o.transmission_id))).toEqual(new Set(Object.values(files).map((f) => f.flowId)));
    for (const o of objects) {
      expect(o).not.toHaveProperty('sha256');
      expect(o).not.toHaveProperty('parsed');
      expect(o.parse_status).not.toBe('pending');
    }
  });

  it('fetching again creates nothing, emits nothing, and moves the cursor past the last flow', async () => {
    expect(await fetchFor(org)).toEqual({ created: 0, existing: 0, repaired: 0, skipped: 0 });
    expect(await rowsOf(org)).toHaveLength(9);
    expect(await receivedEvents(org)).toHaveLength(9);
    const [cursor] = await org.db.select().from(einvoicingPollCursors).where(eq(einvoicingPollCursors.org_id, org.org.id));
    const last = sandbox.pa.state.flows.filter((f) => f.direction === 'In').at(-1)!;
    expect(cursor).toMatchObject({ stream: 'inbound', seen_flow_ids: [last.flowId], last_error: null });
    expect(cursor!.updated_after!.toISOString()).toBe(last.updatedAt);
  });
});

describe('a run that stops half-way loses nothing: the next one repairs it', () => {
  it('stored but not inserted (a crash after the write): the rerun inserts and parses it, one row, one event', async () => {
    const org = await receiver();
    const flowId = org.inject(ciiInvoice({ number: 'CRASH-1' }), 'CII');
    const real = getStorage();
    // The write lands, then the process "dies" before the row is inserted.
    const dying: ObjectStorage = {
      ...real,
      kind: real.kind,
      get: real.get.bind(real),
      head: real.head.bind(real),
      delete: real.delete.bind(real),
      put: async (key, body, options) => {
        await real.put(key, body, options);
        throw new Error('worker killed');
      },
    };
    setStorage(dying);
    try {
      await expect(fetchFor(org)).rejects.toThrow('worker killed');
    } finally {
      setStorage(real);
    }
    expect(await real.head(originalKey(org.org.id, flowId))).not.toBeNull();
    expect(await rowsOf(org)).toHaveLength(0);
    const [cursor] = await org.db.select().from(einvoicingPollCursors).where(eq(einvoicingPollCursors.org_id, org.org.id));
    expect(cursor?.updated_after ?? null).toBeNull();
    expect(cursor?.last_error).toBe('worker killed');

    expect(await fetchFor(org)).toEqual({ created: 1, existing: 0, repaired: 0, skipped: 0 });
    expect(await rowsOf(org)).toMatchObject([{ flow_id: flowId, parse_status: 'parsed', invoice_number: 'CRASH-1' }]);
    expect(await receivedEvents(org)).toHaveLength(1);
  });

  it('inserted but not parsed (storage unreadable for a moment): the row stays pending, the rerun parses it once', async () => {
    const org = await receiver();
    org.inject(ciiInvoice({ number: 'CRASH-2' }), 'CII');
    const real = getStorage();
    setStorage({ ...real, kind: real.kind, put: real.put.bind(real), head: real.head.bind(real), delete: real.delete.bind(real), get: async () => Promise.reject(new Error('storage down')) });
    try {
      await expect(fetchFor(org)).rejects.toThrow('storage down');
    } finally {
      setStorage(real);
    }
    expect(await rowsOf(org)).toMatchObject([{ parse_status: 'pending', invoice_number: null, pdf_storage_key: null }]);
    expect(await receivedEvents(org)).toHaveLength(0);
    expect(await fetchFor(org)).toEqual({ created: 0, existing: 1, repaired: 1, skipped: 0 });
    expect(await rowsOf(org)).toMatchObject([{ parse_status: 'parsed', invoice_number: 'CRASH-2' }]);
    expect(await receivedEvents(org)).toHaveLength(1);
  });

  it('a PA that is down stops the run with its error kept; once up, the flows come', async () => {
    const org = await receiver();
    org.inject(ciiInvoice({ number: 'DOWN-1' }), 'CII');
    sandbox.pa.state.switches.down = true;
    try {
      await expect(fetchFor(org)).rejects.toMatchObject({ name: 'PaError', retryable: true });
    } finally {
      sandbox.pa.state.switches.down = false;
    }
    const [cursor] = await org.db.select().from(einvoicingPollCursors).where(eq(einvoicingPollCursors.org_id, org.org.id));
    expect(cursor!.last_error).toMatch(/503|unavailable|down/i);
    expect(await fetchFor(org)).toEqual({ created: 1, existing: 0, repaired: 0, skipped: 0 });
  });
});

it('pages through more flows than one search returns (100), each read once', { timeout: 120_000 }, async () => {
  const org = await receiver();
  for (let i = 0; i < 130; i++) org.inject(Buffer.from(`not an invoice ${i}`), 'CII');
  expect(await fetchFor(org)).toEqual({ created: 130, existing: 0, repaired: 0, skipped: 0 });
  const rows = await rowsOf(org);
  expect(rows).toHaveLength(130);
  expect(new Set(rows.map((r) => r.parse_status))).toEqual(new Set(['parse_failed']));
  expect(await fetchFor(org)).toEqual({ created: 0, existing: 0, repaired: 0, skipped: 0 });
});

it('the schedule queues a fetch for each enrolled org with a PA, none for the others', async () => {
  const enrolled = await receiver();
  const bare = await createTestOrg();
  const orgs = await fetchableOrgs(enrolled.db);
  expect(orgs).toContain(enrolled.org.id);
  expect(orgs).not.toContain(bare.org.id);
  const now = new Date();
  expect(await enqueueInboundFetches(enrolled.db, now)).toBe(orgs.length);
  await enqueueInboundFetches(enrolled.db, now);
  expect(await hasLiveJob(enrolled.db, fetchInboundJob, { org_id: enrolled.org.id })).toBe(true);
  expect(await hasLiveJob(enrolled.db, fetchInboundJob, { org_id: bare.org.id })).toBe(false);
});
