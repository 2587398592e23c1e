import type { Db, Tx } from '@/db/client';
import { todayParis } from '@/lib/platform/dates';
import { allowedActions, type Conn, type ContactRow, type DocumentRow, loadContactRow, loadDocument, markSent, recordDocumentEvent, type Refusal } from '@/lib/domain/documents';
import { queueEmail, renderEmail } from '@/lib/platform/email';
import { ApiError, conflict } from '@/lib/platform/errors';
import { getOrg } from '@/lib/platform/orgs';
import { documentPdfForSending } from '@/lib/domain/pdf';
import { armLadder, contactEmail, greetingName, languageOf } from '@/lib/domain/reminders';
import type { SendDocumentInput, SendDocumentResult } from './schemas';

/** Why a document cannot be sent (the 409 it answers), or null: the state machine's verdict (lib/domain/documents). */
export function sendRefusal(doc: DocumentRow, today: string): Refusal | null {
  return allowedActions(doc, { today, conversion: null, quoteConversion: null, creditNote: null }).send;
}

/** The override of this send, else the contact's address; none → 422 no_recipient. */
function recipientOf(input: SendDocumentInput, contact: ContactRow | null): string {
  const to = input.email ?? contactEmail(contact);
  if (!to) {
    throw new ApiError(422, 'no_recipient', 'No e-mail address to send to: the contact has none (or no longer exists). Pass one in email.', 'email');
  }
  return to;
}

async function loadForSend(conn: Conn, orgId: string, id: string, input: SendDocumentInput, today: string, lock = false) {
  const doc = await loadDocument(conn, orgId, id, lock);
  const refusal = sendRefusal(doc, today);
  if (refusal) throw conflict(refusal.code, refusal.message);
  const contact = await loadContactRow(conn, orgId, doc.contact_id);
  return { doc, contact, to: recipientOf(input, contact) };
}

/** The `document_sent` e-mail of a document as this send would write it (template data, language). */
async function documentSentEmail(conn: Conn, orgId: string, doc: DocumentRow, contact: ContactRow | null, input: SendDocumentInput, payUrl: string | null) {
  const org = await getOrg(conn, orgId);
  const credited = doc.type === 'avoir' && doc.avoir_for_id ? await loadDocument(conn, orgId, doc.avoir_for_id) : null;
  return {
    org,
    language: languageOf(doc, contact),
    data: {
      seller_name: org.name,
      recipient_name: greetingName(contact),
      document_number: doc.number!,
      message: input.message,
      document_type: doc.type,
      amount_cents: doc.total_ttc,
      due_date: doc.type === 'facture' || doc.type === 'acompte' ? doc.due_date : null,
      validity_date: doc.type === 'devis' ? doc.validity_date : null,
      credited_document_number: credited?.number ?? null,
      pay_url: payUrl,
    },
  };
}

export interface SendPreview {
  to: string;
  cc: string[];
  subject: string;
  /** The e-mail's text, as a mail client without HTML shows it. */
  text: string;
  language: 'fr' | 'en';
}

/**
 * The e-mail POST /v1/invoices/{id}/send would write with this input — recipient, subject and text as the client
 * will read them — without sending anything. The same refusals as the send (409 not sendable, 422 no_recipient).
 * `payUrl`: the "pay online" link the send for payment would add (lib/domain/payments previewSendForPayment).
 */
export async function previewSend(db: Db, orgId: string, id: string, input: SendDocumentInput, now = new Date(), payUrl: string | null = null): Promise<SendPreview> {
  const { doc, contact, to } = await loadForSend(db, orgId, id, input, todayParis(now));
  const { data, language } = await documentSentEmail(db, orgId, doc, contact, input, payUrl);
  const rendered = await renderEmail('document_sent', data, language);
  return { to, cc: (input.cc ?? []).filter((address) => address !== to), subject: input.subject ?? rendered.subject, text: rendered.text, language };
}

export interface SendOptions {
  /**
   * The online payment page the e-mail's "pay online" call to action points at (send-for-payment, lib/domain/payments):
   * called in the send's transaction, under the document's lock, once the document and its recipient passed.
   */
  payUrl?: (tx: Tx, doc: DocumentRow) => Promise<string>;
}

/**
 * POST /v1/invoices/{id}/send: e-mails a finalized document to its client with its PDF, in the contact's
 * language; the address, copies, subject and message given here are for this send only (the contact is not
 * modified). In one transaction: a `finalized` document becomes `sent` (other statuses stay: a paid invoice
 * or an accepted quote can be sent again), `sent_at` is set on the first effective send, the reminder ladder is
 * armed, the e-mail is recorded, and `invoice.sent` is written. The e-mail leaves by its job once that commits.
 */
export async function sendDocument(
  db: Db,
  orgId: string,
  id: string,
  input: SendDocumentInput,
  now = new Date(),
  options: SendOptions = {},
): Promise<SendDocumentResult> {
  const today = todayParis(now);
  // Checked before the PDF is fetched or rendered, then again under the lock.
  await loadForSend(db, orgId, id, input, today);
  const pdf = await documentPdfForSending(db, orgId, id);

  const { view, scheduled } = await db.transaction(async (tx) => {
    const { doc, contact, to } = await loadForSend(tx, orgId, id, input, today, true);
    const payUrl = options.payUrl ? await options.payUrl(tx, doc) : null;
    const updated = await markSent(tx, orgId, doc, now);
    const scheduled = await armLadder(tx, orgId, updated, now);
    const { org, data, language } = await documentSentEmail(tx, orgId, doc, contact, input, payUrl);
    await queueEmail(tx, orgId, {
      to: [to],
      cc: (input.cc ?? []).filter((address) => address !== to),
      replyTo: org.email,
      subject: input.subject,
      template: 'document_sent',
      language,
      documentId: doc.id,
      data,
      attachments: [{ filename: pdf.filename, contentType: 'application/pdf', content: pdf.content }],
    });
    const view = await recordDocumentEvent(tx, orgId, 'invoice.sent', updated);
    return { view, scheduled };
  });
  return { document: view, scheduled_reminders: scheduled, sent: true };
}
