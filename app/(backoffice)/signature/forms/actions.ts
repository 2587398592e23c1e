'use server';

import { revalidatePath } from 'next/cache';
import { formAction, idOf, refuse } from '@/lib/platform/next';
import { createForm, deleteForm, SignatureFormCreate, setFormActive, uploadDocument } from '@/lib/domain/signature';

/* The forms page's server actions: lib/domain/signature's schemas and index, as /v1/signature/forms does. */

const formId = (id: string) => idOf(id, 'Signature form');

/** « Créer le formulaire »: the PDF is stored only once the rest of the form is valid. */
export const createFormAction = formAction(
  async ({ db, orgId }, form: FormData) => {
    const text = (name: string) => String(form.get(name) ?? '').trim();
    const pending = { title: text('title'), template_id: text('template_id') || null, verification_method: text('verification_method') || 'email_otp' };
    // Checked with a stand-in id first: a refused form stores no PDF.
    SignatureFormCreate.parse({ ...pending, source_document_id: '00000000-0000-4000-8000-000000000000' });
    const file = form.get('file');
    if (!(file instanceof File && file.size > 0)) refuse({ file: 'Choisissez le PDF que les visiteurs signeront.' });
    const doc = await uploadDocument(db, orgId, file as File);
    const created = await createForm(db, orgId, SignatureFormCreate.parse({ ...pending, source_document_id: doc.id }));
    revalidatePath('/signature/forms');
    return { done: `Formulaire « ${created.title} » créé : son lien est dans la liste.` };
  },
  { input: (form: FormData) => form },
);

export const toggleFormAction = formAction(
  async ({ db, orgId }, _form: FormData, id: string, active: boolean) => {
    const f = await setFormActive(db, orgId, formId(id), active);
    revalidatePath('/signature/forms');
    return { done: f.active ? 'Formulaire ouvert.' : 'Formulaire fermé : il n’accepte plus de signatures.' };
  },
  { notFound: 'Formulaire introuvable.' },
);

export const deleteFormAction = formAction(
  async ({ db, orgId }, _form: FormData, id: string) => {
    await deleteForm(db, orgId, formId(id));
    revalidatePath('/signature/forms');
    return { done: 'Formulaire supprimé. Les enveloppes déjà signées par son biais restent.' };
  },
  { notFound: 'Formulaire introuvable.' },
);
