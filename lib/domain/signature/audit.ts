import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { signatureAuditEvents, signatureEnvelopes } from '@/db/schema';
import { notFound } from '@/lib/platform/errors';

/**
 * The audit chain of an envelope (DESIGN §12; docs/signature.md is the auditor's version of this file):
 *
 *   content_hash = sha256_hex( prev + "\n" + JCS({seq_index, event_type, event_data, signer_id, occurred_at}) )
 *
 * `prev` is the previous event's content_hash, or "" for seq_index 0 (whose prev_hash is null). JCS is RFC 8785
 * (the `canonicalize` package, as the billing chain), occurred_at the RFC 3339 string the API shows
 * (`Date#toISOString`, millisecond precision, `Z`).
 */
export const AUDIT_EVENT_TYPES = [
  'envelope.created',
  'envelope.sent',
  'envelope.approved',
  'envelope.reminded',
  'envelope.completed',
  'envelope.declined',
  'envelope.expired',
  'envelope.cancelled',
  'envelope.reactivated',
  'signer.notified',
  'signer.opened',
  'signer.consent_given',
  'signer.code_sent',
  'signer.code_verified',
  'signer.code_failed',
  'signer.locked',
  'signer.field_filled',
  'signer.document_uploaded',
  'signer.signed',
  'signer.declined',
] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface AuditEventInput {
  event_type: AuditEventType;
  /** IP, user agent and what the event concerns. */
  event_data: { [key: string]: Json };
  signer_id?: string | null;
  /** Defaults to now; kept at millisecond precision (what the API shows is what is hashed). */
  occurred_at?: Date;
}

export type AuditEventRow = typeof signatureAuditEvents.$inferSelect;

export interface ChainedContent {
  seq_index: number;
  event_type: string;
  event_data: unknown;
  signer_id: string | null;
  occurred_at: string;
}

export function auditContentHash(prev: string | null, content: ChainedContent): string {
  const jcs = canonicalize(content);
  if (jcs === undefined) throw new Error('audit event cannot be canonicalized');
  return createHash('sha256')
    .update(`${prev ?? ''}\n${jcs}`, 'utf8')
    .digest('hex');
}

const contentOf = (row: AuditEventRow): ChainedContent => ({
  seq_index: row.seq_index,
  event_type: row.event_type,
  event_data: row.event_data,
  signer_id: row.signer_id,
  occurred_at: row.occurred_at.toISOString(),
});

/**
 * Appends an event to the envelope's chain, inside the caller's transaction (the same one as the change it records).
 * The envelope row is locked first, so appends to one envelope run one after the other and each links to the last.
 */
export async function appendAuditEvent(tx: Tx | Db, envelopeId: string, event: AuditEventInput): Promise<AuditEventRow> {
  const [envelope] = await tx
    .select({ org_id: signatureEnvelopes.org_id })
    .from(signatureEnvelopes)
    .where(eq(signatureEnvelopes.id, envelopeId))
    .for('update');
  if (!envelope) throw notFound('Signature envelope');
  const [last] = await tx
    .select({ seq_index: signatureAuditEvents.seq_index, content_hash: signatureAuditEvents.content_hash })
    .from(signatureAuditEvents)
    .where(eq(signatureAuditEvents.envelope_id, envelopeId))
    .orderBy(desc(signatureAuditEvents.seq_index))
    .limit(1);
  const seq = last ? last.seq_index + 1 : 0;
  const prev = last?.content_hash ?? null;
  // Stored at millisecond precision so that the value read back is the value hashed.
  const occurredAt = new Date((event.occurred_at ?? new Date()).getTime());
  // Through JSON: what jsonb gives back (no undefined, no Date objects) is what is hashed.
  const data = JSON.parse(JSON.stringify(event.event_data)) as Json;
  const content: ChainedContent = {
    seq_index: seq,
    event_type: event.event_type,
    event_data: data,
    signer_id: event.signer_id ?? null,
    occurred_at: occurredAt.toISOString(),
  };
  const [row] = await tx
    .insert(signatureAuditEvents)
    .values({
      org_id: envelope.org_id,
      envelope_id: envelopeId,
      seq_index: seq,
      event_type: event.event_type,
      event_data: data,
      signer_id: content.signer_id,
      occurred_at: occurredAt,
      content_hash: auditContentHash(prev, content),
      prev_hash: prev,
    })
    .returning();
  return row!;
}

export type AuditBreak = 'index_gap' | 'prev_hash_mismatch' | 'content_hash_mismatch';

export interface AuditChainReport {
  ok: boolean;
  /** Events read. */
  count: number;
  /** The 0-based position of the first event that does not verify, or null. */
  first_broken: { index: number; event_id: string; reason: AuditBreak } | null;
}

/** Re-computes the chain of one envelope from its stored rows; the first event that does not verify is named. */
export async function verifyAuditChain(db: Tx | Db, envelopeId: string): Promise<AuditChainReport> {
  const rows = await auditEvents(db, envelopeId);
  let prev: string | null = null;
  for (const [index, row] of rows.entries()) {
    const reason: AuditBreak | null =
      row.seq_index !== index
        ? 'index_gap'
        : row.prev_hash !== prev
          ? 'prev_hash_mismatch'
          : auditContentHash(prev, contentOf(row)) !== row.content_hash
            ? 'content_hash_mismatch'
            : null;
    if (reason) return { ok: false, count: rows.length, first_broken: { index, event_id: row.id, reason } };
    prev = row.content_hash;
  }
  return { ok: true, count: rows.length, first_broken: null };
}

/** The chain, oldest first (the spec's `audit_chain` and `…/timeline`). */
export function auditEvents(db: Tx | Db, envelopeId: string, orgId?: string): Promise<AuditEventRow[]> {
  return db
    .select()
    .from(signatureAuditEvents)
    .where(and(eq(signatureAuditEvents.envelope_id, envelopeId), orgId ? eq(signatureAuditEvents.org_id, orgId) : undefined))
    .orderBy(asc(signatureAuditEvents.seq_index));
}

/** The spec's Audit event. */
export function publicAuditEvent(row: AuditEventRow) {
  return {
    id: row.id,
    seq_index: row.seq_index,
    event_type: row.event_type,
    event_data: row.event_data,
    signer_id: row.signer_id,
    occurred_at: row.occurred_at.toISOString(),
    content_hash: row.content_hash,
    prev_hash: row.prev_hash,
  };
}
