import { type StaffContext, refuse } from '@/lib/platform/next';
import { type Actor, createEnvelope, EnvelopeCreate, uploadDocument } from '@/lib/domain/signature';

/*
 * The envelope editor's handler apart from its wrapper (actions.ts adds the actor from the request, revalidation and
 * the redirect): signature-pages.test.ts runs it under a given session.
 */

// Stands for the upload's id while the body is checked, before the PDF is stored (a refused form stores nothing).
const PENDING_UPLOAD = '00000000-0000-4000-8000-000000000000';

/**
 * The editor's form: the body as JSON in `payload` (toEnvelopePayload), the PDF in `file` for the source `document`.
 * The body is checked first, then the PDF stored through lib/domain/signature, then the draft created with its signers.
 */
export async function createEnvelopeFromForm(staff: StaffContext, form: FormData, actor: Actor) {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(String(form.get('payload') ?? '{}')) as Record<string, unknown>;
  } catch {
    refuse({ _form: 'Formulaire illisible : rechargez la page.' });
  }
  const file = form.get('file');
  const upload = raw.source_kind === 'document';
  EnvelopeCreate.parse(upload ? { ...raw, source_document_id: PENDING_UPLOAD } : raw);
  if (upload && !(file instanceof File && file.size > 0)) refuse({ file: 'Choisissez le PDF à faire signer.' });
  const body = upload ? { ...raw, source_document_id: (await uploadDocument(staff.db, staff.orgId, file as File)).id } : raw;
  return createEnvelope(staff.db, staff.orgId, EnvelopeCreate.parse(body), actor);
}
