import { randomInt } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { type InboundParseStatus, inboundInvoices, orgs } from '@/db/schema';
import { isValidSiren } from '@/lib/platform/identifiers';
import { billingContext, line } from '@/lib/domain/documents/testing';
import { readStoredPdf, renderStoredDocument } from '@/lib/domain/pdf';
import { LocalStorage, setStorage, sha256Hex } from '@/lib/platform/storage';
import { createTestOrg, type TestOrg } from '@/lib/testing/fixtures';
import * as acceptRoute from '@/app/v1/invoices/inbound/[id]/accept/route';
import * as disputeRoute from '@/app/v1/invoices/inbound/[id]/dispute/route';
import * as pdfRoute from '@/app/v1/invoices/inbound/[id]/pdf/route';
import * as refuseRoute from '@/app/v1/invoices/inbound/[id]/refuse/route';
import * as oneRoute from '@/app/v1/invoices/inbound/[id]/route';
import * as listRoute from '@/app/v1/invoices/inbound/route';
import type { FlowSyntax } from '../port';
import { connectToSandbox, sandboxPaFixture } from '../testing';
import { enrollAtSandbox } from './receive-for-tests';

/** The inbound route handlers (the real route files). */
export const inboundRoutes = {
  list: listRoute.GET,
  get: oneRoute.GET,
  pdf: pdfRoute.GET,
  accept: acceptRoute.POST,
  refuse: refuseRoute.POST,
  dispute: disputeRoute.POST,
};

const SAMPLES = path.join(process.cwd(), 'lib/domain/einvoicing/parse/fixtures/samples');
const FIXTURES = path.join(process.cwd(), 'lib/domain/einvoicing/parse/fixtures');
export const sample = (name: string) => readFile(path.join(SAMPLES, name));
export const fixture = (name: string) => readFile(path.join(FIXTURES, name));

/** Stored files go to a temporary directory for the test file. */
export function tempStorageFixture() {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'paraphe-inbound-'));
    setStorage(new LocalStorage(dir));
  });
  afterAll(async () => {
    setStorage(undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });
}

/** A random SIREN with a valid check digit (Luhn). */
export function newSiren(): string {
  const stem = String(randomInt(10_000_000, 99_999_999));
  for (let d = 0; d < 10; d++) if (isValidSiren(`${stem}${d}`)) return `${stem}${d}`;
  throw new Error('unreachable: one check digit always fits');
}

/**
 * A sandbox PA for the file, and `receiver()`: an org connected to it and enrolled (its directory line registered at
 * the sandbox, the enrollment row `enrolled`), to which `inject` delivers files as a supplier's PA would.
 */
export function inboxFixture() {
  tempStorageFixture();
  const sandbox = sandboxPaFixture();
  async function receiver() {
    const org = await createTestOrg();
    // Each receiver its own SIREN: the sandbox routes a SIREN to the one platform user that registered it.
    const siren = newSiren();
    await org.db.update(orgs).set({ siren, siret: null }).where(eq(orgs.id, org.org.id));
    org.org.siren = siren;
    await connectToSandbox(org, sandbox.url);
    await enrollAtSandbox(org);
    return {
      ...org,
      /** A file addressed to this org, as the sandbox's admin endpoint injects it; the PA's flow id. */
      inject(file: Uint8Array, syntax: FlowSyntax, contentType = syntax === 'Factur-X' ? 'application/pdf' : 'application/xml') {
        return sandbox.pa.state.inject(org.org.siren!, Buffer.from(file), contentType, syntax, null).flowId;
      },
    };
  }
  return { sandbox, receiver };
}
export type Receiver = Awaited<ReturnType<ReturnType<typeof inboxFixture>['receiver']>>;

/** A Factur-X PDF as Paraphe renders it: an invoice of a supplier org (another test org), finalized and rendered. */
export async function ownFacturX(): Promise<{ pdf: Uint8Array; number: string; totalTtc: number }> {
  const supplier = await createTestOrg('Fournisseur Paraphe');
  const api = await billingContext(supplier);
  const client = await api.contact({ company: 'Client SARL', siret: '73282932000074' });
  const doc = await api.issued({ type: 'facture', contact_id: client.id, items: [line('Conseil', '2', 45000, '20'), line('Déplacement', '1', 12000, '10')] });
  if ((await renderStoredDocument(supplier.db, supplier.org.id, doc.id)) !== 'ready') throw new Error('render failed');
  const stored = await readStoredPdf(supplier.db, supplier.org.id, doc.id);
  return { pdf: stored!.content, number: doc.number, totalTtc: doc.total_ttc };
}

/** A received invoice row written as-is (a state the fetch passes through: pending), for the endpoints' tests. */
export async function insertInbound(org: TestOrg, values: { parse_status?: InboundParseStatus; flow_id?: string } = {}) {
  const flowId = values.flow_id ?? `flow-${Math.random().toString(36).slice(2)}`;
  const [row] = await org.db
    .insert(inboundInvoices)
    .values({ org_id: org.org.id, flow_id: flowId, parse_status: values.parse_status ?? 'pending', storage_key: `inbound/${org.org.id}/x/original`, sha256: sha256Hex(Buffer.from(flowId)) })
    .returning();
  return row!;
}
