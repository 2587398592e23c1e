'use server';

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { clientAddress } from '@/lib/platform/auth';
import { listDocuments } from '@/lib/domain/documents';
import { formatMoney } from '@/lib/platform/format';
import { formAction, idOf, type StaffContext, staffAction } from '@/lib/platform/next';
import {
  type Actor,
  ApproverCreate,
  addApprover,
  approveEnvelope,
  cancelEnvelope,
  EnvelopePatch,
  createTemplate,
  deleteEnvelope,
  deleteTemplate,
  FieldsPut,
  patchEnvelope,
  ReactivateInput,
  RequestedDocumentsPut,
  reactivateEnvelope,
  remindEnvelope,
  removeApprover,
  replaceFields,
  replaceRequestedDocuments,
  retrySeal,
  SignatureTemplateCreate,
  sendEnvelope,
  signerLink,
} from '@/lib/domain/signature';
import { parisEndOfDay } from './editor-model';
import { createEnvelopeFromForm } from './handlers';

/*
 * The signature back-office's server actions: each parses with lib/domain/signature's schemas and calls its index, as the
 * /v1/signature routes do; refusals come back in French through lib/platform/next/action (lib/platform/i18n's catalogue).
 */

const onEnvelope = { notFound: 'Enveloppe introuvable.', lists: ['labels', 'cc_recipients'] } as const;
const envelopeId = (id: string) => idOf(id, 'Signature envelope');

function refresh(id?: string) {
  revalidatePath('/signature');
  if (id) revalidatePath(`/signature/${id}`);
}

/** Who acts, for the envelope's audit chain: the staff member, from the request's address and browser. */
async function staffActor(staff: StaffContext): Promise<Actor> {
  const h = await headers();
  return { ip: clientAddress(h), user_agent: h.get('user-agent')?.slice(0, 500) ?? null, user_id: staff.userId, api_key_id: null };
}

/**
 * Creates the draft (handlers.ts: the body checked first, then the PDF stored, then the envelope created), then opens
 * its page, where fields and approvers are set.
 */
export const createEnvelopeAction = formAction(
  async (staff, form: FormData) => {
    const envelope = await createEnvelopeFromForm(staff, form, await staffActor(staff));
    refresh(envelope.id);
    redirect(`/signature/${envelope.id}`);
  },
  { lists: onEnvelope.lists },
);

/** The editor on a draft: its settings and signers replaced (PATCH; the signers' fields go with them). */
export const updateEnvelopeAction = formAction(
  async ({ db, orgId }, form: FormData, id: string) => {
    let raw: unknown;
    try {
      raw = JSON.parse(String(form.get('payload') ?? '{}'));
    } catch {
      raw = null;
    }
    await patchEnvelope(db, orgId, envelopeId(id), EnvelopePatch.parse(raw));
    refresh(id);
    redirect(`/signature/${id}`);
  },
  onEnvelope,
);

export interface SourceChoice {
  id: string;
  name: string;
  detail: string;
}

/** The source picker's search: the org's finalized quotes or invoices (sent ones included) matching `q`. */
export const searchSourcesAction = staffAction(async ({ db, orgId }, kind: 'devis' | 'facture', q: string): Promise<SourceChoice[]> => {
  const query = q.trim().slice(0, 200);
  const page = await listDocuments(db, orgId, { type: kind === 'devis' ? 'devis' : 'facture', q: query || undefined, limit: 20 });
  return page.data
    .filter((d) => d.finalized_at !== null)
    .slice(0, 8)
    .map((d) => ({
      id: d.id,
      name: `${d.number ?? 'Sans numéro'}${d.title ? ` · ${d.title}` : ''}`,
      detail: [d.contact_name, formatMoney(d.total_ttc)].filter(Boolean).join(' · '),
    }));
});

/** A draft goes with its signers and its chain; a sent envelope cannot be deleted (the page does not offer it). */
export const deleteEnvelopeAction = formAction(async ({ db, orgId }, _form: FormData, id: string) => {
  await deleteEnvelope(db, orgId, envelopeId(id));
  refresh();
  redirect('/signature?deleted=1');
}, onEnvelope);

export const createTemplateAction = formAction(
  async ({ db, orgId }, input: Record<string, unknown>) => {
    const t = await createTemplate(db, orgId, SignatureTemplateCreate.parse(input));
    revalidatePath('/signature/templates');
    return { done: `Modèle « ${t.name} » créé.` };
  },
  {
    lists: ['labels', 'cc_recipients'],
    input: (form: FormData) => {
      const text = (name: string) => String(form.get(name) ?? '').trim();
      const list = (name: string, by: RegExp) => text(name).split(by).map((x) => x.trim()).filter(Boolean);
      return {
        name: text('name'),
        subject: text('subject') || null,
        message: text('message') || null,
        labels: list('labels', /,/),
        cc_recipients: list('cc_recipients', /[\s,;]+/),
      };
    },
  },
);

export const deleteTemplateAction = formAction(
  async ({ db, orgId }, _form: FormData, id: string) => {
    await deleteTemplate(db, orgId, idOf(id, 'Signature template'));
    revalidatePath('/signature/templates');
    return { done: 'Modèle supprimé. Les enveloppes créées avec lui gardent leurs valeurs.' };
  },
  { notFound: 'Modèle introuvable.' },
);

/** « Envoyer »: refused while an approver has not approved (409 approval_pending), shown beside the button. */
export const sendEnvelopeAction = formAction(async (staff, _form: FormData, id: string) => {
  const e = await sendEnvelope(staff.db, staff.orgId, envelopeId(id), await staffActor(staff));
  refresh(id);
  const invited = e.signers.filter((s) => s.status === 'notified').length;
  return { done: `Enveloppe envoyée : ${invited > 1 ? `${invited} signataires sont invités` : 'le premier signataire est invité'} par e-mail.` };
}, onEnvelope);

export const remindEnvelopeAction = formAction(async (staff, _form: FormData, id: string) => {
  await remindEnvelope(staff.db, staff.orgId, envelopeId(id), await staffActor(staff));
  refresh(id);
  return { done: 'Relance envoyée aux signataires dont c’est le tour.' };
}, onEnvelope);

export const cancelEnvelopeAction = formAction(async (staff, _form: FormData, id: string) => {
  await cancelEnvelope(staff.db, staff.orgId, envelopeId(id), await staffActor(staff));
  refresh(id);
  return { done: 'Enveloppe annulée : les liens de signature ne fonctionnent plus.' };
}, onEnvelope);

/** Expired → sent, until the day chosen (end of day in Paris) or the default expiry; fresh links are e-mailed. */
export const reactivateEnvelopeAction = formAction(async (staff, form: FormData, id: string) => {
  const day = String(form.get('expires_on') ?? '').trim();
  const input = ReactivateInput.parse(day ? { expires_at: /^\d{4}-\d{2}-\d{2}$/.test(day) ? parisEndOfDay(day) : day } : {});
  await reactivateEnvelope(staff.db, staff.orgId, envelopeId(id), input, await staffActor(staff));
  refresh(id);
  return { done: 'Enveloppe réactivée : de nouveaux liens ont été envoyés.' };
}, { ...onEnvelope, lists: ['expires_at'] });

/** « Relancer le scellement »: the seal job queued again once its cause is fixed (POST …/seal). */
export const retrySealAction = formAction(async ({ db, orgId }, _form: FormData, id: string) => {
  await retrySeal(db, orgId, envelopeId(id));
  refresh(id);
  return { done: 'Scellement relancé : le document signé et le dossier de preuve seront disponibles dans un instant.' };
}, onEnvelope);

/** The signed-in member approves the draft (only for themselves). */
export const approveEnvelopeAction = formAction(async (staff, _form: FormData, id: string) => {
  await approveEnvelope(staff.db, staff.orgId, envelopeId(id), {}, await staffActor(staff));
  refresh(id);
  return { done: 'Envoi approuvé.' };
}, onEnvelope);

export const addApproverAction = formAction(async ({ db, orgId }, form: FormData, id: string) => {
  await addApprover(db, orgId, envelopeId(id), ApproverCreate.parse({ user_id: String(form.get('user_id') ?? '') }));
  refresh(id);
  return { done: 'Approbateur ajouté : il est prévenu par e-mail.' };
}, onEnvelope);

export const removeApproverAction = formAction(async ({ db, orgId }, _form: FormData, id: string, approverId: string) => {
  await removeApprover(db, orgId, envelopeId(id), idOf(approverId, 'Approver'));
  refresh(id);
  return { done: 'Approbateur retiré.' };
}, onEnvelope);

/** A signer's current link, to copy (the token is not replaced: the link e-mailed keeps working). */
export const signerLinkAction = staffAction(async ({ db, orgId }, id: string, signerId: string) => signerLink(db, orgId, envelopeId(id), idOf(signerId, 'Signer')), onEnvelope);

/** The fields placed on the pages (PUT …/fields): the whole set replaces the previous one. */
export const saveFieldsAction = staffAction(async ({ db, orgId }, id: string, body: unknown) => {
  const saved = await replaceFields(db, orgId, envelopeId(id), FieldsPut.parse(body));
  refresh(id);
  return saved;
}, onEnvelope);

export const saveRequestedDocumentsAction = formAction(
  async ({ db, orgId }, body: unknown, id: string) => {
    await replaceRequestedDocuments(db, orgId, envelopeId(id), RequestedDocumentsPut.parse(body));
    refresh(id);
    return { done: 'Pièces demandées enregistrées.' };
  },
  { ...onEnvelope, input: (raw: unknown) => raw },
);
