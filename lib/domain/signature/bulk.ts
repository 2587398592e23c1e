import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { signatureAuditEvents, signatureBulkBatches, signatureDocuments, signatureEnvelopes, signatureFields, signatureSigners, signatureTemplates } from '@/db/schema';
import { fromZodError, validationError } from '@/lib/platform/errors';
import { enqueueMany, hasLiveJob } from '@/lib/platform/jobs';
import { auditContentHash } from './audit';
import { bulkSendJob } from './bulk-job';
import { CONSENT_TEXT_VERSION } from './envelope-schemas';
import type { Actor } from './envelopes';
import { type BulkSend, BulkRecipient, type BulkSendResult } from './form-schemas';
import { documentTextTags, signersNeeded, type TextTag, tagFieldRows } from './text-tags';

type Result = BulkSendResult['results'][number];
type Valid = { index: number; recipient: BulkRecipient; key: string };

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** A recipient checked on its own, or its problem in words with its field (`recipients.2.phone: required …`). */
function checkRecipient(raw: unknown, index: number, method: BulkSend['verification_method']): { recipient: BulkRecipient } | { error: string } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { error: `recipients.${index}: must be an object {email, full_name, phone}` };
  const parsed = BulkRecipient.safeParse(raw);
  if (!parsed.success) return { error: fromZodError(parsed.error, `recipients.${index}`).message };
  if (method === 'sms_otp' && !parsed.data.phone) return { error: `recipients.${index}.phone: required when verification_method is sms_otp` };
  return { recipient: parsed.data };
}

const emailOf = (raw: unknown): string | null =>
  raw && typeof raw === 'object' && typeof (raw as { email?: unknown }).email === 'string' ? (raw as { email: string }).email : null;

/**
 * `POST /v1/signature/envelopes/bulk`: one mono-signer draft per valid recipient, all in one transaction with their
 * `envelope.created` events and one `signature.bulk_send` job each (jobs send them, so the request answers fast
 * whatever the count). Each envelope carries a `bulk_key` derived from the request (its Idempotency-Key, else its
 * canonical body) and the recipient's e-mail: a retry finds the envelopes already made instead of making them again,
 * and queues a send again for a draft that a failed send left behind.
 */
export async function bulkSend(db: Db, orgId: string, input: BulkSend, opts: { actor: Actor; idempotencyKey?: string | null }): Promise<BulkSendResult> {
  return (await bulkSendBatch(db, orgId, input, opts)).result;
}

/** bulkSend, with the id of the batch (the back-office opens its results view). */
export async function bulkSendBatch(
  db: Db,
  orgId: string,
  input: BulkSend,
  opts: { actor: Actor; idempotencyKey?: string | null },
): Promise<{ batch_id: string; result: BulkSendResult }> {
  const requestHash = sha256(canonicalize(input) ?? '');
  const scope = opts.idempotencyKey ? `key:${sha256(opts.idempotencyKey)}` : `body:${requestHash}`;

  // Recipients in request order: an invalid one or a repeated e-mail is an error of its own, the others go on.
  const results: Result[] = [];
  const valid: Valid[] = [];
  const seen = new Set<string>();
  input.recipients.forEach((raw, index) => {
    const checked = checkRecipient(raw, index, input.verification_method);
    if ('error' in checked) {
      results.push({ email: emailOf(raw), envelope_id: null, error: checked.error });
      return;
    }
    const { recipient } = checked;
    if (seen.has(recipient.email)) {
      results.push({ email: recipient.email, envelope_id: null, error: `recipients.${index}.email: appears earlier in the request` });
      return;
    }
    seen.add(recipient.email);
    results.push({ email: recipient.email, envelope_id: null, error: null });
    valid.push({ index, recipient, key: sha256(`${scope}\n${recipient.email}`) });
  });

  return db.transaction(async (tx) => {
    const preset = await sharedFields(tx, orgId, input);
    const batchId = await batchFor(tx, orgId, scope, input.recipients.length);
    const existing = valid.length
      ? await tx
          .select({ id: signatureEnvelopes.id, bulk_key: signatureEnvelopes.bulk_key, status: signatureEnvelopes.status })
          .from(signatureEnvelopes)
          .where(
            and(
              eq(signatureEnvelopes.org_id, orgId),
              inArray(
                signatureEnvelopes.bulk_key,
                valid.map((v) => v.key),
              ),
            ),
          )
      : [];
    const byKey = new Map(existing.map((e) => [e.bulk_key!, e]));
    const fresh = valid.filter((v) => !byKey.has(v.key));
    const created = await createDrafts(tx, orgId, input, preset, batchId, fresh, opts.actor);
    for (const c of created) byKey.set(c.bulk_key, { id: c.id, bulk_key: c.bulk_key, status: 'draft' });

    // Drafts to send: the new ones, and those a failed send left (unless their job is still on its way).
    const toSend: string[] = created.map((c) => c.id);
    for (const e of existing) {
      if (e.status === 'draft' && !(await hasLiveJob(tx, bulkSendJob, { envelope_id: e.id }))) toSend.push(e.id);
    }
    await enqueueMany(
      tx,
      toSend.map((envelope_id) => ({ def: bulkSendJob, data: { org_id: orgId, envelope_id, actor: opts.actor } })),
    );

    for (const v of valid) results[v.index]!.envelope_id = byKey.get(v.key)!.id;
    const failed = results.filter((r) => r.error !== null).length;
    const outcome = { sent_count: results.length - failed, failed_count: failed, results };
    await tx
      .update(signatureBulkBatches)
      .set({ sent_count: outcome.sent_count, failed_count: failed, results })
      .where(eq(signatureBulkBatches.id, batchId));
    return { batch_id: batchId, result: outcome };
  });
}

type Preset = { subject: string | null; message: string | null; labels: string[]; cc_recipients: string[]; template_id: string | null; tags: TextTag[] };

/** The shared document must be an uploaded PDF of the org; the template's presets fill what the request omits. */
async function sharedFields(tx: Tx, orgId: string, input: BulkSend): Promise<Preset> {
  const [doc] = await tx
    .select({ id: signatureDocuments.id })
    .from(signatureDocuments)
    .where(and(eq(signatureDocuments.org_id, orgId), eq(signatureDocuments.id, input.source_document_id)));
  if (!doc) throw validationError('source_document_id', 'source_document_id: no such signature document');
  if (input.expires_at && new Date(input.expires_at) <= new Date()) throw validationError('expires_at', 'expires_at: must be in the future to send');
  // Each bulk envelope has one signer: the document's text tags may name signer 1 only (docs/signature.md, "Text tags").
  const tags = await documentTextTags(tx, orgId, doc.id);
  if (signersNeeded(tags) > 1) {
    throw validationError('source_document_id', `source_document_id: the document's text tags name signer ${signersNeeded(tags)}; a bulk envelope has one signer`);
  }
  let tpl: typeof signatureTemplates.$inferSelect | undefined;
  if (input.template_id) {
    [tpl] = await tx
      .select()
      .from(signatureTemplates)
      .where(and(eq(signatureTemplates.org_id, orgId), eq(signatureTemplates.id, input.template_id)));
    if (!tpl) throw validationError('template_id', 'template_id: no such signature template');
  }
  return {
    subject: input.subject ?? tpl?.subject ?? null,
    message: input.message ?? tpl?.message ?? null,
    labels: input.labels ?? tpl?.labels ?? [],
    cc_recipients: input.cc_recipients ?? tpl?.cc_recipients ?? [],
    template_id: tpl?.id ?? null,
    tags,
  };
}

/** The batch of this request: a retry keeps the first one (its row is the back-office's results view). */
async function batchFor(tx: Tx, orgId: string, scope: string, count: number): Promise<string> {
  // The scope is hashed again so that the row never holds the Idempotency-Key itself.
  const scopeHash = sha256(scope);
  const [found] = await tx
    .select({ id: signatureBulkBatches.id })
    .from(signatureBulkBatches)
    .where(and(eq(signatureBulkBatches.org_id, orgId), eq(signatureBulkBatches.request_hash, scopeHash)));
  if (found) return found.id;
  const [row] = await tx
    .insert(signatureBulkBatches)
    .values({ org_id: orgId, request_hash: scopeHash, recipient_count: count })
    .returning({ id: signatureBulkBatches.id });
  return row!.id;
}

/** Envelopes, signers and the first event of each chain in three statements (a new chain starts at seq 0). */
async function createDrafts(tx: Tx, orgId: string, input: BulkSend, preset: Preset, batchId: string, fresh: Valid[], actor: Actor) {
  if (fresh.length === 0) return [];
  const envelopes = await tx
    .insert(signatureEnvelopes)
    .values(
      fresh.map((v) => ({
        org_id: orgId,
        source_kind: 'document' as const,
        source_document_id: input.source_document_id,
        document_id: input.source_document_id,
        template_id: preset.template_id,
        bulk_batch_id: batchId,
        bulk_key: v.key,
        created_by_user_id: actor.user_id ?? null,
        consent_text_version: CONSENT_TEXT_VERSION,
        subject: preset.subject,
        message: preset.message,
        cc_recipients: preset.cc_recipients,
        labels: preset.labels,
        expires_at: input.expires_at ? new Date(input.expires_at) : null,
        reminder_interval_hours: input.reminder_interval_hours ?? null,
        reminder_max_count: input.reminder_max_count ?? 1,
      })),
    )
    .returning({ id: signatureEnvelopes.id, bulk_key: signatureEnvelopes.bulk_key });
  const envelopeOf = new Map(envelopes.map((e) => [e.bulk_key!, e.id]));
  const signers = await tx
    .insert(signatureSigners)
    .values(
      fresh.map((v) => ({
        org_id: orgId,
        envelope_id: envelopeOf.get(v.key)!,
        position: 0,
        email: v.recipient.email,
        full_name: v.recipient.full_name,
        phone: v.recipient.phone ?? null,
        verification_method: input.verification_method,
      })),
    )
    .returning();
  if (preset.tags.length > 0) {
    await tx.insert(signatureFields).values(signers.flatMap((s) => tagFieldRows(preset.tags, orgId, s.envelope_id, [s])));
  }
  const occurredAt = new Date();
  await tx.insert(signatureAuditEvents).values(
    signers.map((s) => {
      const event_data = JSON.parse(
        JSON.stringify({
          ip: actor.ip,
          user_agent: actor.user_agent,
          user_id: actor.user_id ?? null,
          api_key_id: actor.api_key_id ?? null,
          source_kind: 'document',
          source_document_id: input.source_document_id,
          bulk_batch_id: batchId,
          signers: [{ id: s.id, email: s.email, routing_order: s.routing_order, verification_method: s.verification_method }],
        }),
      );
      const content = { seq_index: 0, event_type: 'envelope.created', event_data, signer_id: null, occurred_at: occurredAt.toISOString() };
      return {
        org_id: orgId,
        envelope_id: s.envelope_id,
        seq_index: 0,
        event_type: 'envelope.created',
        event_data,
        signer_id: null,
        occurred_at: occurredAt,
        content_hash: auditContentHash(null, content),
        prev_hash: null,
      };
    }),
  );
  return envelopes.map((e) => ({ id: e.id, bulk_key: e.bulk_key! }));
}
