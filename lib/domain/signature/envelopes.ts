import { and, asc, desc, eq, exists, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { signatureDocuments, signatureEnvelopes, signatureSigners, signatureTemplates } from '@/db/schema';
import { loadDocument } from '@/lib/domain/documents';
import { ApiError, conflict, notFound, validationError } from '@/lib/platform/errors';
import { afterCursor, toPage } from '@/lib/platform/http';
import { appendAuditEvent, auditEvents, publicAuditEvent } from './audit';
import { CONSENT_TEXT_VERSION, type EnvelopeCreate, type EnvelopeListQuery } from './envelope-schemas';
import { evidenceOf } from './evidence-state';
import { placeTagFields } from './text-tags';

type EnvelopeRow = typeof signatureEnvelopes.$inferSelect;
type SignerRow = typeof signatureSigners.$inferSelect;

/** Who acted, for the audit chain: the request's address and user agent, the staff member or the API key. */
export interface Actor {
  ip: string | null;
  user_agent: string | null;
  user_id?: string | null;
  api_key_id?: string | null;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function publicSigner(row: SignerRow) {
  return {
    id: row.id,
    email: row.email,
    full_name: row.full_name,
    phone: row.phone,
    routing_order: row.routing_order,
    verification_method: row.verification_method,
    status: row.status,
    otp_attempts: row.otp_attempts,
    consent_given_at: iso(row.consent_given_at),
    signed_at: iso(row.signed_at),
    token_expires_at: iso(row.token_expires_at),
    signed_ip: row.signed_ip,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function envelopeSummary(row: EnvelopeRow) {
  return {
    id: row.id,
    status: row.status,
    source_kind: row.source_kind,
    source_document_id: row.source_document_id,
    routing_mode: row.routing_mode,
    assurance_level: row.assurance_level,
    consent_text_version: row.consent_text_version,
    subject: row.subject,
    message: row.message,
    sender_name: row.sender_name,
    reply_to: row.reply_to,
    cc_recipients: row.cc_recipients,
    labels: row.labels,
    expires_at: iso(row.expires_at),
    completed_at: iso(row.completed_at),
    document_hash: row.document_hash,
    has_proof: row.proof_key !== null,
    has_signed_document: row.signed_document_key !== null,
    evidence: evidenceOf(row),
    reminder_count: row.reminder_count,
    reminder_max_count: row.reminder_max_count,
    reminder_interval_hours: row.reminder_interval_hours,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

async function envelopeOf(conn: Db | Tx, orgId: string, id: string, forUpdate = false): Promise<EnvelopeRow> {
  const q = conn
    .select()
    .from(signatureEnvelopes)
    .where(and(eq(signatureEnvelopes.org_id, orgId), eq(signatureEnvelopes.id, id)));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound('Signature envelope');
  return row;
}

const signersOf = (conn: Db | Tx, envelopeId: string) =>
  conn.select().from(signatureSigners).where(eq(signatureSigners.envelope_id, envelopeId)).orderBy(asc(signatureSigners.position));

/** The source must be the org's: an uploaded PDF, or a finalized quote / invoice (its contact is the envelope's). */
async function resolveSource(tx: Tx, orgId: string, input: EnvelopeCreate): Promise<{ document_id: string | null; contact_id: string | null }> {
  if (input.source_kind === 'document') {
    const [doc] = await tx
      .select({ id: signatureDocuments.id })
      .from(signatureDocuments)
      .where(and(eq(signatureDocuments.org_id, orgId), eq(signatureDocuments.id, input.source_document_id)));
    if (!doc) throw validationError('source_document_id', 'source_document_id: no such signature document');
    return { document_id: doc.id, contact_id: null };
  }
  const billing = await loadDocument(tx, orgId, input.source_document_id).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  });
  if (!billing || billing.type !== input.source_kind || !billing.finalized_at) {
    throw validationError(
      'source_document_id',
      input.source_kind === 'devis'
        ? 'source_document_id: must be a finalized devis of the organisation'
        : 'source_document_id: must be a finalized facture of the organisation',
    );
  }
  // The PDF signed is its render, frozen at send.
  return { document_id: null, contact_id: billing.contact_id };
}

/** `POST /v1/signature/envelopes`: a draft with its signers, and `envelope.created` first in its chain. */
export async function createEnvelope(db: Db, orgId: string, input: EnvelopeCreate, actor: Actor) {
  return db.transaction(async (tx) => {
    const source = await resolveSource(tx, orgId, input);
    let preset: typeof signatureTemplates.$inferSelect | undefined;
    if (input.template_id) {
      [preset] = await tx
        .select()
        .from(signatureTemplates)
        .where(and(eq(signatureTemplates.org_id, orgId), eq(signatureTemplates.id, input.template_id)));
      if (!preset) throw validationError('template_id', 'template_id: no such signature template');
    }
    const [envelope] = await tx
      .insert(signatureEnvelopes)
      .values({
        org_id: orgId,
        source_kind: input.source_kind,
        source_document_id: input.source_document_id,
        document_id: source.document_id,
        contact_id: source.contact_id,
        template_id: preset?.id ?? null,
        created_by_user_id: actor.user_id ?? null,
        routing_mode: input.routing_mode,
        assurance_level: input.assurance_level,
        consent_text_version: CONSENT_TEXT_VERSION,
        subject: input.subject ?? preset?.subject ?? null,
        message: input.message ?? preset?.message ?? null,
        sender_name: input.sender_name ?? null,
        reply_to: input.reply_to ?? null,
        cc_recipients: input.cc_recipients ?? preset?.cc_recipients ?? [],
        labels: input.labels ?? preset?.labels ?? [],
        expires_at: input.expires_at ? new Date(input.expires_at) : null,
        reminder_interval_hours: input.reminder_interval_hours ?? null,
        reminder_max_count: input.reminder_max_count ?? 1,
      })
      .returning();
    const signers = await tx
      .insert(signatureSigners)
      .values(
        input.signers.map((s, position) => ({
          org_id: orgId,
          envelope_id: envelope!.id,
          position,
          email: s.email,
          full_name: s.full_name ?? null,
          phone: s.phone ?? null,
          // Parallel routing: everyone signs at once, whatever the order given.
          routing_order: input.routing_mode === 'parallel' ? 0 : s.routing_order,
          verification_method: s.verification_method,
        })),
      )
      .returning();
    signers.sort((a, b) => a.position - b.position);
    // An uploaded PDF's text tags become its fields (issue 19).
    if (source.document_id) await placeTagFields(tx, orgId, envelope!.id, source.document_id, signers);
    await appendAuditEvent(tx, envelope!.id, {
      event_type: 'envelope.created',
      event_data: {
        ip: actor.ip,
        user_agent: actor.user_agent,
        user_id: actor.user_id ?? null,
        api_key_id: actor.api_key_id ?? null,
        source_kind: input.source_kind,
        source_document_id: input.source_document_id,
        signers: signers.map((s) => ({ id: s.id, email: s.email, routing_order: s.routing_order, verification_method: s.verification_method })),
      },
    });
    return { ...envelopeSummary(envelope!), signers: signers.map(publicSigner) };
  });
}

/** `GET /v1/signature/envelopes/{id}`: with its signers and its audit chain. */
export async function getEnvelope(db: Db, orgId: string, id: string) {
  const row = await envelopeOf(db, orgId, id);
  const [signers, chain] = await Promise.all([signersOf(db, id), auditEvents(db, id, orgId)]);
  return { ...envelopeSummary(row), signers: signers.map(publicSigner), audit_chain: chain.map(publicAuditEvent) };
}

/** Newest first, cursor-paginated, every filter of the spec; without signers. */
export async function listEnvelopes(db: Db, orgId: string, query: EnvelopeListQuery) {
  const e = signatureEnvelopes;
  const pattern = query.q ? `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await db
    .select()
    .from(e)
    .where(
      and(
        eq(e.org_id, orgId),
        afterCursor(e.id, query.cursor),
        query.status ? eq(e.status, query.status) : undefined,
        query.source_document_id ? eq(e.source_document_id, query.source_document_id) : undefined,
        query.contact_id ? eq(e.contact_id, query.contact_id) : undefined,
        query.label ? sql`${e.labels} @> array[${query.label}]::text[]` : undefined,
        pattern
          ? or(
              ilike(e.subject, pattern),
              exists(
                db
                  .select({ one: sql`1` })
                  .from(signatureSigners)
                  .where(and(eq(signatureSigners.envelope_id, e.id), ilike(signatureSigners.email, pattern))),
              ),
            )
          : undefined,
      ),
    )
    .orderBy(desc(e.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, envelopeSummary);
}

/** `DELETE /v1/signature/envelopes/{id}`: a draft only (409 `envelope_not_draft`), with its signers and chain. */
export async function deleteEnvelope(db: Db, orgId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await envelopeOf(tx, orgId, id, true);
    if (row.status !== 'draft') throw conflict('envelope_not_draft', `The envelope is ${row.status}: only a draft can be deleted.`);
    await tx.delete(signatureEnvelopes).where(and(eq(signatureEnvelopes.org_id, orgId), inArray(signatureEnvelopes.id, [id])));
  });
}

/** The actor of a /v1 call, as its audit events record it. */
export function actorOf(req: Request, principal: { kind: 'api_key'; keyId: string } | { kind: 'session'; userId: string }, ip: string): Actor {
  return {
    ip,
    user_agent: req.headers.get('user-agent')?.slice(0, 500) ?? null,
    user_id: principal.kind === 'session' ? principal.userId : null,
    api_key_id: principal.kind === 'api_key' ? principal.keyId : null,
  };
}
