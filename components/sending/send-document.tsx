import { type Db, getDb } from '@/db/client';
import { todayParis } from '@/lib/platform/dates';
import { theDocument } from '@/lib/platform/i18n';
import { type DocumentRow, loadContactRow, loadDocument } from '@/lib/domain/documents';
import { canTakePayments, onlinePaymentRefusal, paymentAccountState, paymentProvider } from '@/lib/domain/payments';
import { contactEmail, languageOf } from '@/lib/domain/reminders';
import { sendRefusal } from '@/lib/domain/sending';
import { sendDocumentAction } from './send-document-actions';
import { type PayLinkOffer, SendDocumentDialog } from './send-document-dialog';

const NOUN = { devis: theDocument('devis'), facture: theDocument('facture'), acompte: theDocument('acompte'), avoir: theDocument('avoir') } as const;

/**
 * The pay link's box: for an invoice payable online once the provider is configured and an account connected;
 * checked by default when the org takes payments (canTakePayments, the rule of the automatic sends).
 */
async function payLinkOffer(db: Db, orgId: string, doc: DocumentRow): Promise<PayLinkOffer | null> {
  if (!doc.finalized_at || onlinePaymentRefusal(doc) !== null || !paymentProvider()) return null;
  if (!(await paymentAccountState(db, orgId))) return null;
  return { ready: await canTakePayments(db, orgId) };
}

/**
 * Sending a finalized document by e-mail (server component): the one dialog, with the contact's address and
 * language and, for an invoice payable online, the pay link, for a document that can be sent (not a draft, not
 * cancelled, rejected or expired). Embed it: `<SendDocument orgId={…} documentId={…} />`.
 */
export async function SendDocument({ orgId, documentId }: { orgId: string; documentId: string }) {
  const db = await getDb();
  const doc = await loadDocument(db, orgId, documentId);
  if (sendRefusal(doc, todayParis())) return null;
  const contact = await loadContactRow(db, orgId, doc.contact_id);
  return (
    <SendDocumentDialog
      documentId={doc.id}
      action={sendDocumentAction.bind(null, doc.id)}
      what={`${NOUN[doc.type]} ${doc.number}`}
      contactEmail={contactEmail(contact)}
      language={languageOf(doc, contact)}
      sentBefore={doc.sent_at !== null}
      payLink={await payLinkOffer(db, orgId, doc)}
    />
  );
}
