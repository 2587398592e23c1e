import { and, asc, eq, inArray, lte, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/db/client';
import { contacts, documentRenders, documents, orgs, reminders } from '@/db/schema';
import { todayParis } from '@/lib/platform/dates';
import { balanceSql, type ContactRow, type DocumentRow } from '@/lib/domain/documents';
import { type Language, queueEmail, type QueueEmailInput } from '@/lib/platform/email';
import { formatRate } from '@/lib/platform/format';
import { CHASED_STATUSES } from './arm-ladder';
import { readStoredPdf } from '@/lib/domain/pdf';
import { ladderKindOf, manualTone } from './ladder';
import { contactEmail, greetingName, languageOf } from './recipient';
import { log } from '@/lib/platform/log';

type ReminderRow = typeof reminders.$inferSelect;
type OrgRow = typeof orgs.$inferSelect;

/** Reminders claimed per transaction: short transactions (PGlite has one connection), few round trips. */
export const DISPATCH_BATCH = 50;
/** Batches in flight at once in one run: one renders while another waits on the database. */
export const DISPATCH_LANES = 2;
/** Unexpected failures of one reminder before it is skipped (reason failed, last_error kept). */
export const MAX_DISPATCH_ATTEMPTS = 3;
/** Back-off before a failed reminder is tried again: 5 min, then 10. */
export const DISPATCH_RETRY_MS = 5 * 60_000;

export interface DispatchOptions {
  now?: Date;
  /** Only this org's reminders (tests; the job serves every org). */
  orgId?: string;
  batchSize?: number;
  /** Batches dispatched side by side (default DISPATCH_LANES). */
  lanes?: number;
}

export interface DispatchSummary {
  sent: number;
  skipped: number;
  cancelled: number;
  /** Failed unexpectedly this time: back to pending for a later run, or skipped once out of attempts. */
  failed: number;
}

type Outcome = { status: 'skipped' | 'cancelled'; reason: string } | { status: 'send'; email: QueueEmailInput };

interface Context {
  doc: DocumentRow;
  /** pdf's render state of the document (document_renders; none yet: pending). */
  renderStatus: string;
  balance: number;
  contact: ContactRow | null;
  org: OrgRow;
  today: string;
}

/** The late-payment penalty as the invoice states it, in the words of the e-mail (as the PDF prints it). */
function penaltyTerms(doc: DocumentRow, lang: Language): string {
  const rate = (doc.seller_snapshot as { penalty_rate?: string | null } | null)?.penalty_rate;
  if (rate) return lang === 'fr' ? `au taux annuel de ${formatRate(rate, 'fr', { nbsp: true })}` : `at an annual rate of ${formatRate(rate, 'en', { nbsp: true })}`;
  return lang === 'fr' ? 'au taux directeur de la Banque centrale européenne majoré de 10 points' : 'at the European Central Bank refinancing rate plus 10 points';
}

/**
 * What becomes of a due reminder, from the document and the contact as they are now: never for a document no
 * longer chased (paid, cancelled, decided or lapsed quote, nothing left to pay), never to a client who opted out
 * of reminders or has no address; otherwise the e-mail, in the client's language, its tone escalating along
 * the ladder.
 */
function decide(r: ReminderRow, { doc, balance, contact, org, today }: Context): Outcome {
  const kind = ladderKindOf(doc.type);
  if (!kind) return { status: 'cancelled', reason: 'not_chased' };
  if (!(CHASED_STATUSES[kind] as readonly string[]).includes(doc.status)) return { status: 'cancelled', reason: `document_${doc.status}` };
  if (kind === 'quote_expiry' && (!doc.validity_date || doc.validity_date < today)) return { status: 'cancelled', reason: 'quote_lapsed' };
  if (kind === 'payment' && (balance <= 0 || !doc.due_date)) return { status: 'cancelled', reason: 'nothing_due' };
  if (contact?.reminder_opt_out) return { status: 'skipped', reason: 'opted_out' };
  const to = contactEmail(contact);
  if (!to) return { status: 'skipped', reason: 'no_recipient' };

  const language = languageOf(doc, contact);
  const envelope = { to: [to], replyTo: org.email, language, documentId: doc.id };
  const shared = { seller_name: org.name, recipient_name: greetingName(contact), document_number: doc.number!, message: r.message };
  if (kind === 'quote_expiry') {
    return {
      status: 'send',
      email: { ...envelope, template: 'quote_expiry_reminder', data: { ...shared, amount_cents: doc.total_ttc, validity_date: doc.validity_date! } },
    };
  }
  const client = doc.client_snapshot as { type?: string } | null;
  return {
    status: 'send',
    email: {
      ...envelope,
      template: 'payment_reminder',
      data: {
        ...shared,
        document_type: doc.type as 'facture' | 'acompte',
        amount_due_cents: balance,
        due_date: doc.due_date!,
        tone: r.tone ?? manualTone(doc.due_date!, today),
        business_client: client?.type !== 'particulier',
        late_penalty_terms: penaltyTerms(doc, language),
      },
    },
  };
}

/** Claims due reminders (pending → sent, rows locked, others' claims skipped), in the caller's transaction. */
async function claim(tx: Tx, now: Date, limit: number, orgId?: string): Promise<ReminderRow[]> {
  const due = tx
    .select({ id: reminders.id })
    .from(reminders)
    .where(and(eq(reminders.status, 'pending'), lte(reminders.scheduled_at, now), orgId ? eq(reminders.org_id, orgId) : undefined))
    .orderBy(asc(reminders.scheduled_at), asc(reminders.id))
    .limit(limit)
    .for('update', { skipLocked: true });
  return tx
    .update(reminders)
    .set({ status: 'sent', sent_at: now, updated_at: now })
    .where(and(inArray(reminders.id, due), eq(reminders.status, 'pending')))
    .returning();
}

async function loadContexts(tx: Tx, claimed: ReminderRow[], today: string): Promise<Map<string, Context>> {
  const docIds = [...new Set(claimed.map((r) => r.document_id))];
  const docs = await tx
    .select({ doc: documents, balance: sql<string>`${balanceSql(sql`${documents}`)}`, renderStatus: sql<string>`coalesce(${documentRenders.status}, 'pending')` })
    .from(documents)
    .leftJoin(documentRenders, eq(documentRenders.document_id, documents.id))
    .where(inArray(documents.id, docIds));
  const contactIds = [...new Set(docs.map((d) => d.doc.contact_id))];
  const orgIds = [...new Set(docs.map((d) => d.doc.org_id))];
  const contactRows = contactIds.length ? await tx.select().from(contacts).where(inArray(contacts.id, contactIds)) : [];
  const orgRows = orgIds.length ? await tx.select().from(orgs).where(inArray(orgs.id, orgIds)) : [];
  const contactById = new Map(contactRows.map((c) => [c.id, c]));
  const orgById = new Map(orgRows.map((o) => [o.id, o]));
  return new Map(
    docs.map(({ doc, balance, renderStatus }) => [
      doc.id,
      {
        doc,
        renderStatus,
        balance: Number(balance),
        contact: contactById.get(doc.contact_id) ?? null,
        org: orgById.get(doc.org_id)!,
        today,
      },
    ]),
  );
}

/**
 * Per document, the latest ladder step due at `now`, among those claimed here, those still pending (another
 * dispatcher's, or a later batch's) and those another lane has already sent at the same time (its claim committed
 * first: seen as pending only until then, which let two lanes each send a step of one document). A dispatcher that was stopped for a while catches up with one e-mail per
 * document, the latest step's (its tone escalated); the older steps are skipped as superseded.
 */
async function latestDueSteps(tx: Tx, claimed: ReminderRow[], now: Date): Promise<Map<string, number>> {
  const latest = new Map<string, number>();
  const bump = (documentId: string, at: Date) => latest.set(documentId, Math.max(latest.get(documentId) ?? 0, at.getTime()));
  const steps = claimed.filter((r) => r.kind !== 'manual');
  for (const r of steps) bump(r.document_id, r.scheduled_at);
  if (steps.length === 0) return latest;
  const pending = await tx
    .select({ document_id: reminders.document_id, at: sql<Date>`max(${reminders.scheduled_at})`.mapWith(reminders.scheduled_at) })
    .from(reminders)
    .where(
      and(
        inArray(reminders.document_id, [...latest.keys()]),
        // A later step another lane already claimed (and committed as sent) supersedes this one as much as a pending one.
        inArray(reminders.status, ['pending', 'sent']),
        ne(reminders.kind, 'manual'),
        lte(reminders.scheduled_at, now),
      ),
    )
    .groupBy(reminders.document_id);
  for (const p of pending) bump(p.document_id, p.at);
  return latest;
}

/** The stored PDF of each document about to be reminded, when it is ready; a reminder never waits for one. */
async function storedPdfs(db: Tx, contexts: Context[]) {
  const pdfs = new Map<string, Awaited<ReturnType<typeof readStoredPdf>>>();
  for (const { doc, renderStatus } of contexts) {
    if (renderStatus !== 'ready' || pdfs.has(doc.id)) continue;
    try {
      pdfs.set(doc.id, await readStoredPdf(db, doc.org_id, doc.id));
    } catch (err) {
      log.error({ module: 'reminders', document_id: doc.id, err }, `the stored PDF of document ${doc.id} could not be read; the reminder goes without it`);
    }
  }
  return pdfs;
}

async function dispatchBatch(tx: Tx, now: Date, limit: number, orgId?: string) {
  const summary: DispatchSummary = { sent: 0, skipped: 0, cancelled: 0, failed: 0 };
  const claimed = await claim(tx, now, limit, orgId);
  if (claimed.length === 0) return { claimed: 0, summary };

  const contexts = await loadContexts(tx, claimed, todayParis(now));
  const latest = await latestDueSteps(tx, claimed, now);
  const outcomes = claimed.map((r) => ({
    r,
    outcome:
      r.kind !== 'manual' && r.scheduled_at.getTime() < (latest.get(r.document_id) ?? 0)
        ? ({ status: 'skipped', reason: 'superseded' } as const)
        : decide(r, contexts.get(r.document_id)!),
  }));
  const toSend = outcomes.filter((o) => o.outcome.status === 'send');
  const pdfs = await storedPdfs(tx, toSend.map((o) => contexts.get(o.r.document_id)!));

  // Skipped and cancelled ones, grouped by outcome: one statement each.
  const settled = new Map<string, string[]>();
  for (const { r, outcome } of outcomes) {
    if (outcome.status === 'send') continue;
    const key = `${outcome.status}|${outcome.reason}`;
    settled.set(key, [...(settled.get(key) ?? []), r.id]);
  }
  for (const [key, ids] of settled) {
    const [status, reason] = key.split('|') as ['skipped' | 'cancelled', string];
    await tx.update(reminders).set({ status, reason, sent_at: null, updated_at: now }).where(inArray(reminders.id, ids));
    summary[status] += ids.length;
  }

  const marks: Array<{ id: string; email_id: string; tone: string | null }> = [];
  for (const { r, outcome } of toSend) {
    if (outcome.status !== 'send') continue;
    const pdf = pdfs.get(r.document_id);
    const input = pdf ? { ...outcome.email, attachments: [{ filename: pdf.filename, contentType: 'application/pdf', content: pdf.content }] } : outcome.email;
    try {
      // A savepoint: one reminder that cannot be queued does not take the others down with it.
      const email = await tx.transaction((sp) => queueEmail(sp, r.org_id, input));
      marks.push({ id: r.id, email_id: email.id, tone: input.template === 'payment_reminder' ? input.data.tone : null });
      summary.sent++;
    } catch (err) {
      const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      log.error({ module: 'reminders', reminder_id: r.id, err }, `reminder ${r.id} could not be sent (attempt ${r.attempts + 1}/${MAX_DISPATCH_ATTEMPTS})`);
      const attempts = r.attempts + 1;
      const giveUp = attempts >= MAX_DISPATCH_ATTEMPTS;
      await tx
        .update(reminders)
        .set({
          status: giveUp ? 'skipped' : 'pending',
          reason: giveUp ? 'failed' : null,
          sent_at: null,
          attempts,
          last_error: message.slice(0, 2000),
          scheduled_at: giveUp ? r.scheduled_at : new Date(now.getTime() + DISPATCH_RETRY_MS * 2 ** (attempts - 1)),
          updated_at: now,
        })
        .where(eq(reminders.id, r.id));
      summary.failed++;
    }
  }
  // Each sent reminder names its e-mail (and the tone it went out with), in one statement for the batch.
  if (marks.length) {
    await tx.execute(sql`
      update ${reminders} set email_id = m.email_id, tone = m.tone, last_error = null, updated_at = ${now}
        from jsonb_to_recordset(${JSON.stringify(marks)}::jsonb) as m(id uuid, email_id uuid, tone text)
       where ${reminders.id} = m.id`);
  }
  return { claimed: claimed.length, summary };
}

/**
 * Sends every reminder due at `now`, in batches of short transactions. Each batch claims its reminders with
 * `FOR UPDATE SKIP LOCKED` and marks them sent in the same transaction that records their e-mails, so a step
 * is sent at most once however many dispatchers run, and a crash leaves it pending for the next run. Each e-mail's
 * job is written with it, so it leaves once its batch commits. `lanes` batches run side by side (on PostgreSQL one renders
 * e-mails while another waits on the database; they share the work exactly as two dispatchers would). Runs
 * across orgs (a maintenance job); `orgId` narrows it.
 */
export async function dispatchDueReminders(db: Db, options: DispatchOptions = {}): Promise<DispatchSummary> {
  const now = options.now ?? new Date();
  const limit = options.batchSize ?? DISPATCH_BATCH;
  const total: DispatchSummary = { sent: 0, skipped: 0, cancelled: 0, failed: 0 };
  const lane = async () => {
    for (;;) {
      const batch = await db.transaction((tx) => dispatchBatch(tx, now, limit, options.orgId));
      for (const key of Object.keys(total) as Array<keyof DispatchSummary>) total[key] += batch.summary[key];
      // A claimed reminder always leaves the due set (sent, skipped, cancelled, or pushed past `now`): this ends.
      if (batch.claimed < limit) return;
    }
  };
  await Promise.all(Array.from({ length: options.lanes ?? DISPATCH_LANES }, lane));
  return total;
}
