import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { documents, einvoicingDocumentStates, einvoicingTransmissions, invoiceSettings } from '@/db/schema';
import { InboundParseFailure } from '../parse/types';
import type { PaConnector, PaFlow } from '../port';
import { readCdar } from './cdar';
import { appendLifecycle } from './record';
import { walkFlows } from './walk';

export interface PollReport {
  /** CDAR flows read. */
  flows: number;
  /** Statuses appended to a document's log (a status read again counts nothing). */
  recorded: number;
  /** Statuses about no document of ours (a received invoice's, or an unknown number), and unreadable messages. */
  ignored: number;
}

/** The org's invoice (facture, acompte, avoir) with that number, when it was transmitted. */
async function transmittedDocument(db: Db, orgId: string, number: string) {
  const [doc] = await db
    .select({ id: documents.id, seller: documents.seller_snapshot })
    .from(documents)
    .innerJoin(einvoicingDocumentStates, eq(einvoicingDocumentStates.document_id, documents.id))
    .where(and(eq(documents.org_id, orgId), eq(documents.number, number), inArray(documents.type, ['facture', 'acompte', 'avoir']), isNotNull(einvoicingDocumentStates.transmission_id)));
  return doc ?? null;
}

async function readFlow(db: Db, orgId: string, connector: PaConnector, flow: PaFlow, report: PollReport) {
  report.flows++;
  const { file } = await connector.getFlow(flow.flowId, 'Original');
  let statuses: ReturnType<typeof readCdar>;
  try {
    statuses = readCdar(file);
  } catch (err) {
    if (!(err instanceof InboundParseFailure)) throw err;
    report.ignored++;
    return;
  }
  for (const s of statuses) {
    const doc = await transmittedDocument(db, orgId, s.invoice.number);
    const sellerSiren = (doc?.seller as { siren?: string | null } | null)?.siren;
    if (!doc || (s.invoice.sellerSiren && sellerSiren && s.invoice.sellerSiren !== sellerSiren)) {
      report.ignored++;
      continue;
    }
    const added = await db.transaction((tx) =>
      appendLifecycle(tx, orgId, doc.id, {
        paEventId: `cdar:${flow.flowId}:${s.messageId}`,
        direction: 'received',
        flowId: flow.flowId,
        code: s.code,
        reasonCode: s.reasonCode,
        reason: s.reason,
        issuerRole: s.issuerRole,
        amountCents: s.amount?.cents ?? null,
        occurredAt: new Date(s.issuedAt),
      }),
    );
    if (added) report.recorded++;
  }
}

/**
 * Reads the lifecycle statuses the PA reports for the org's invoices: the CDAR flows (direction In, type
 * CustomerInvoiceLC) updated since the org's `lifecycle` cursor, each status appended once to its document's log
 * (the PA's flow and message ids are its identity: polling twice, or a run resumed after a crash, duplicates
 * nothing). A PA down or slow stops the run with the cursor where it was; the schedule tries again. `maxPages`
 * bounds a run asked by hand (« Actualiser »): the schedule reads on from the cursor.
 */
export async function pollLifecycle(db: Db, orgId: string, connector: PaConnector, options: { maxPages?: number } = {}): Promise<PollReport> {
  const report: PollReport = { flows: 0, recorded: 0, ignored: 0 };
  await walkFlows(
    db,
    orgId,
    'lifecycle',
    connector,
    { directions: ['In'], flowTypes: ['CustomerInvoiceLC'] },
    (flow) => readFlow(db, orgId, connector, flow, report),
    options.maxPages,
  );
  return report;
}

/** The orgs whose statuses are polled: a PA configured and at least one invoice transmitted. */
export async function pollableOrgs(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ org_id: einvoicingTransmissions.org_id })
    .from(einvoicingTransmissions)
    .innerJoin(invoiceSettings, eq(invoiceSettings.org_id, einvoicingTransmissions.org_id))
    .where(and(eq(einvoicingTransmissions.status, 'sent'), isNotNull(invoiceSettings.pdp_config)));
  return rows.map((r) => r.org_id);
}
