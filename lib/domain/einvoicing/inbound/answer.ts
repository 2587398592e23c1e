import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { einvoicingLifecycleEvents, inboundInvoices } from '@/db/schema';
import { ApiError, conflict } from '@/lib/platform/errors';
import { sha256Hex } from '@/lib/platform/storage';
import { buildCdar } from '../lifecycle/cdar';
import { connectorForOrg } from '../connector';
import { LIFECYCLE_CODES, lifecycleToken } from '../lifecycle-codes';
import { type PaConnector, PaError } from '../port';
import type { InboundDetail } from './process';
import { loadInbound } from './queries';
import { INBOUND_ANSWERS, type InboundAnswer, type InboundAnswerResult } from './schemas';

/** 205 Approuvée and 210 Refusée close the buyer's side; 207 En litige may still end in either. */
const FINAL_CODES = new Set<string>([INBOUND_ANSWERS.accept, INBOUND_ANSWERS.refuse]);

type SentEvent = typeof einvoicingLifecycleEvents.$inferSelect;

const resultOf = (e: SentEvent): InboundAnswerResult => ({
  inbound_invoice_id: e.inbound_invoice_id!,
  code: e.code,
  lifecycle_status: e.token,
  reason_code: e.reason_code,
  reason: e.reason,
  lifecycle_at: e.occurred_at.toISOString(),
  cdar_flow_id: e.flow_id!,
});

/** What the PA's failure means to the caller: try later (503), or the PA refused (502) — its message kept. */
export function paFailure(err: PaError): ApiError {
  return err.retryable
    ? new ApiError(503, 'pa_unavailable', `The PA did not answer: ${err.message}. Try again in a few minutes.`)
    : new ApiError(502, 'pa_refused', `The PA refused the request: ${err.message}.`);
}

/** The lifecycle statuses the org sent for a received invoice, latest first. */
export async function sentStatuses(db: Db, orgId: string, inboundId: string): Promise<SentEvent[]> {
  return db
    .select()
    .from(einvoicingLifecycleEvents)
    .where(
      and(
        eq(einvoicingLifecycleEvents.org_id, orgId),
        eq(einvoicingLifecycleEvents.inbound_invoice_id, inboundId),
        eq(einvoicingLifecycleEvents.direction, 'sent'),
      ),
    )
    .orderBy(desc(einvoicingLifecycleEvents.occurred_at), desc(einvoicingLifecycleEvents.id));
}

export interface AnswerInput {
  reason_code?: string | null;
  reason?: string | null;
}

/**
 * Staff's answer to a received invoice, sent to the PA as a CDAR lifecycle status (XP Z12-012, issued by the buyer):
 * accept → 205 Approuvée, refuse → 210 Refusée (a reason code of the closed list), dispute → 207 En litige (a
 * reason). Recorded in the append-only lifecycle log and on the row (lifecycle_status/_reason/_at).
 *
 * Idempotent: the same answer again returns the first without sending anything; the CDAR flow's trackingId is
 * derived from the invoice and the code, and searched at the PA before submitting, so a request that crashed after
 * the PA took the flow does not send a second one. 409 inbound_already_answered once approved or refused (a
 * dispute may still be settled either way). A PA failure: 503 pa_unavailable (retry) or 502 pa_refused.
 */
export async function answerInbound(
  db: Db,
  orgId: string,
  id: string,
  answer: InboundAnswer,
  input: AnswerInput,
  connector?: PaConnector,
): Promise<InboundAnswerResult> {
  const row = await loadInbound(db, orgId, id);
  const code = INBOUND_ANSWERS[answer];
  const [last] = await sentStatuses(db, orgId, id);
  if (last?.code === code) return resultOf(last);
  if (last && FINAL_CODES.has(last.code)) {
    const label = LIFECYCLE_CODES[last.code as keyof typeof LIFECYCLE_CODES]?.label ?? last.code;
    throw conflict('inbound_already_answered', `This received invoice was already answered: ${last.code} ${label} on ${last.occurred_at.toISOString()}.`);
  }
  const pa = connector ?? (await connectorForOrg(db, orgId));
  const trackingId = `inbound-${row.id}-${code}`;
  const occurredAt = new Date();
  let flowId: string;
  try {
    const [already] = await pa.searchFlows({ trackingId, limit: 1 });
    if (already) flowId = already.flowId;
    else {
      const xml = Buffer.from(
        buildCdar({
          messageId: trackingId,
          code,
          reasonCode: input.reason_code ?? null,
          reason: input.reason ?? null,
          issuerRole: 'buyer',
          issuedAt: occurredAt.toISOString(),
          invoice: { number: row.invoice_number ?? row.flow_id, issueDate: row.issue_date, sellerSiren: row.sender_siren, typeCode: (row.parsed as InboundDetail | null)?.type_code ?? null },
        }),
      );
      flowId = (await pa.submitFlow(xml, sha256Hex(xml), { trackingId, name: `${trackingId}.xml`, syntax: 'CDAR', processingRule: 'B2B' })).flowId;
    }
  } catch (err) {
    if (err instanceof PaError) throw paFailure(err);
    throw err;
  }
  return db.transaction(async (tx) => {
    const [event] = await tx
      .insert(einvoicingLifecycleEvents)
      .values({
        org_id: orgId,
        inbound_invoice_id: id,
        direction: 'sent',
        pa_event_id: `cdar:${flowId}`,
        flow_id: flowId,
        code,
        token: lifecycleToken(code),
        reason_code: input.reason_code ?? null,
        reason: input.reason ?? null,
        issuer_role: 'buyer',
        occurred_at: occurredAt,
      })
      .onConflictDoNothing({ target: [einvoicingLifecycleEvents.org_id, einvoicingLifecycleEvents.pa_event_id] })
      .returning();
    // A concurrent request recorded the same flow first: its row is the answer.
    const recorded =
      event ?? (await tx.select().from(einvoicingLifecycleEvents).where(and(eq(einvoicingLifecycleEvents.org_id, orgId), eq(einvoicingLifecycleEvents.pa_event_id, `cdar:${flowId}`))))[0]!;
    await tx
      .update(inboundInvoices)
      .set({ lifecycle_status: recorded.token, lifecycle_reason: recorded.reason ?? recorded.reason_code, lifecycle_at: recorded.occurred_at })
      .where(eq(inboundInvoices.id, id));
    return resultOf(recorded);
  });
}
