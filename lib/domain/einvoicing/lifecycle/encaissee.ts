import { and, eq, max } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { einvoicingLifecycleEvents, payments } from '@/db/schema';
import { loadDocument, loadItems } from '@/lib/domain/documents';
import { sha256Hex } from '@/lib/platform/storage';
import { connectorForOrg } from '../connector';
import type { PaConnector } from '../port';
import { buildCdar } from './cdar';
import { appendLifecycle } from './record';

const TYPE_CODES: Record<string, string> = { facture: '380', acompte: '386', avoir: '381' };

export type EncaisseeOutcome = 'sent' | 'skipped';

/**
 * Emits 212 Encaissée for an invoice paid in full (the seller's status, mandatory: it feeds VAT on receipts), once:
 * as a CDAR flow to the PA with the amount collected (the invoice's total, in cents), the VAT rate when the invoice
 * has one, and the day of the payment that settled it (in the log: dated when it is sent). Its identity is the document (`sent:212:<id>` in the log,
 * tracking id `212-<id>` at the PA): a job run twice finds it in the log; a run that died after the upload finds the
 * flow at the PA by its tracking id and records it without sending another. Only an invoice that was transmitted
 * (`sent`) — a payment before the transmission is emitted once it is (submit.ts).
 */
export async function emitEncaissee(db: Db, orgId: string, documentId: string, connector?: PaConnector): Promise<EncaisseeOutcome> {
  const paEventId = `sent:212:${documentId}`;
  const [done] = await db
    .select({ id: einvoicingLifecycleEvents.id })
    .from(einvoicingLifecycleEvents)
    .where(and(eq(einvoicingLifecycleEvents.org_id, orgId), eq(einvoicingLifecycleEvents.pa_event_id, paEventId)));
  if (done) return 'skipped';
  const doc = await loadDocument(db, orgId, documentId);
  if (doc.status !== 'paid' || doc.transmission_status !== 'sent' || !doc.number) return 'skipped';
  const [paid] = await db
    .select({ day: max(payments.paid_at) })
    .from(payments)
    .where(and(eq(payments.org_id, orgId), eq(payments.document_id, documentId)));
  // The status says when the money came: the payment's calendar day (Europe/Paris), at noon UTC (the same day wherever
  // it is read). The log dates it when it is issued, so it reads as the invoice's latest status.
  const paidAt = new Date(`${paid?.day ?? new Date().toISOString().slice(0, 10)}T12:00:00.000Z`);
  const rates = [...new Set((await loadItems(db, orgId, documentId)).filter((i) => i.kind === 'product').map((i) => i.vat_rate))];
  const trackingId = `212-${documentId}`;
  const xml = buildCdar({
    messageId: `PARAPHE-212-${documentId}`,
    code: '212',
    reasonCode: null,
    reason: null,
    issuerRole: 'seller',
    issuedAt: paidAt.toISOString(),
    invoice: {
      number: doc.number,
      issueDate: doc.issue_date,
      sellerSiren: (doc.seller_snapshot as { siren?: string | null } | null)?.siren ?? null,
      typeCode: TYPE_CODES[doc.type] ?? null,
    },
    amount: { cents: doc.total_ttc, currency: 'EUR', vatRate: rates.length === 1 ? rates[0]! : null },
  });
  const file = Buffer.from(xml, 'utf8');
  const pa = connector ?? (await connectorForOrg(db, orgId));
  const [already] = await pa.searchFlows({ trackingId, limit: 1 });
  const flowId = already?.flowId ?? (await pa.submitFlow(file, sha256Hex(file), { trackingId, name: `${doc.number}-212.xml`, syntax: 'CDAR', processingRule: 'B2B' })).flowId;
  await db.transaction((tx) =>
    appendLifecycle(tx, orgId, documentId, {
      paEventId,
      direction: 'sent',
      flowId,
      code: '212',
      reasonCode: null,
      reason: null,
      issuerRole: 'seller',
      amountCents: doc.total_ttc,
      occurredAt: new Date(),
    }),
  );
  return 'sent';
}
