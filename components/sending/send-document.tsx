import { getDb } from '@/db/client';
import { todayParis } from '@/lib/platform/dates';
import { loadContactRow, loadDocument } from '@/lib/domain/documents';
import { contactEmail, languageOf } from '@/lib/domain/reminders';
import { sendRefusal } from '@/lib/domain/sending';
import { sendDocumentAction } from './send-document-actions';
import { SendDocumentDialog } from './send-document-dialog';

const NOUN = { devis: 'le devis', facture: 'la facture', acompte: 'la facture d’acompte', avoir: 'l’avoir' } as const;

/**
 * Sending a finalized document by e-mail (server component): the dialog, with the contact's address and language,
 * for a document that can be sent (not a draft, not cancelled, rejected or expired). Embed it:
 * `<SendDocument orgId={…} documentId={…} />`.
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
    />
  );
}
