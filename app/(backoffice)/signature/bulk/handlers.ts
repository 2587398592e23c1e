import { refuse, type StaffContext } from '@/lib/platform/next';
import { type Actor, BulkSend, bulkSendBatch, MAX_BULK_RECIPIENTS, uploadDocument } from '@/lib/domain/signature';
import { decodeCsv } from '../../contacts/import/csv';
import { type RecipientRow, readRecipients } from './recipients-csv';

/*
 * The bulk page's handler apart from its wrapper (actions.ts adds the actor from the request, revalidation and the
 * redirect): bulk-page.test.ts runs it under a given session.
 */

export interface BulkPreview {
  rows: RecipientRow[];
  csv: string;
  document_id: string;
  document_name: string;
}

/**
 * « Prévisualiser » reads the CSV (a file, or the text shown back) and stores the PDF once, returning every row with
 * its problems; « Envoyer » (`intent=send`) sends the rows through lib/domain/signature's bulk send and returns the batch.
 */
export async function bulkFromForm(staff: StaffContext, form: FormData, actor: Actor): Promise<{ preview: BulkPreview } | { batch_id: string }> {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const csvFile = form.get('csv_file');
  const csv = csvFile instanceof File && csvFile.size > 0 ? decodeCsv(new Uint8Array(await csvFile.arrayBuffer())) : text('csv');
  if (!csv) refuse({ csv: 'Choisissez le fichier CSV des destinataires (ou collez son contenu).' });
  const method = text('verification_method') === 'sms_otp' ? 'sms_otp' : 'email_otp';
  const { rows, problem } = readRecipients(csv, method === 'sms_otp');
  if (problem) refuse({ csv: problem });
  if (rows.length === 0) refuse({ csv: 'Le fichier ne contient aucun destinataire.' });
  if (rows.length > MAX_BULK_RECIPIENTS) refuse({ csv: `${rows.length} destinataires : ${MAX_BULK_RECIPIENTS} au plus par envoi, découpez le fichier.` });
  let documentId = text('document_id');
  let documentName = text('document_name');
  const pdf = form.get('file');
  if (pdf instanceof File && pdf.size > 0) {
    const doc = await uploadDocument(staff.db, staff.orgId, pdf);
    documentId = doc.id;
    documentName = doc.name;
  }
  if (!documentId) refuse({ file: 'Choisissez le PDF à faire signer.' });
  if (text('intent') !== 'send') return { preview: { rows, csv, document_id: documentId, document_name: documentName } };

  const body = BulkSend.parse({
    source_document_id: documentId,
    verification_method: method,
    template_id: text('template_id') || null,
    subject: text('subject') || null,
    message: text('message') || null,
    recipients: rows.map((r) => ({ email: r.email, full_name: r.full_name, ...(r.phone ? { phone: r.phone } : {}) })),
  });
  const { batch_id } = await bulkSendBatch(staff.db, staff.orgId, body, { actor });
  return { batch_id };
}
