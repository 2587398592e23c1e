'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { convertToFacture } from '@/lib/billing/convert-to-facture';
import { createCreditNote } from '@/lib/billing/create-credit-note';
import { createDeposit } from '@/lib/billing/create-deposit';
import { createDocument } from '@/lib/billing/create-document';
import { duplicateDocument } from '@/lib/billing/duplicate-document';
import { verifyChain } from '@/lib/billing/hash-chain';
import { deletePayment, recordPayment } from '@/lib/billing/payments';
import { listProducts } from '@/lib/billing/products';
import { acceptQuote, rejectQuote } from '@/lib/billing/quote-decision';
import { type BillingDocument, CreditNoteBody, DepositBody, DocumentCreate, DocumentPatch, PaymentInput } from '@/lib/billing/schemas';
import { unitCodeOf } from '@/lib/billing/units';
import { deleteDocument, updateDocument } from '@/lib/billing/update-document';
import { listContacts } from '@/lib/contacts/contacts';
import { ApiError, fieldErrors } from '@/lib/errors';
import { requireStaffOrg } from '@/lib/http/staff';
import { parseEuros } from '@/lib/money';
import { cancelDocument } from '@/lib/billing/cancel-document';
import { finalizeDocument } from '@/lib/billing/finalize-document';
import type { ProductChoice } from './editor-model';

/** What a form or button of the billing pages gets back: a message above it, or messages by field. */
export type ActionState = { error?: string; errors?: Record<string, string>; done?: string };

const Id = z.uuid();

/** The message without its field prefix ("items.2.vat_rate: …"): it is shown beside that field. */
const bare = (err: ApiError) => (err.field && err.message.startsWith(`${err.field}: `) ? err.message.slice(err.field.length + 2) : err.message);

/** A refusal of the services (404, 409, 422) as the page shows it; anything else is a bug and is rethrown. */
async function attempt<T>(run: () => Promise<T>): Promise<T | ActionState> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
      return err.field ? { error: err.message, errors: { [err.field]: bare(err) } } : { error: err.message };
    }
    throw err;
  }
}
const refused = (r: unknown): r is ActionState => typeof r === 'object' && r !== null && ('error' in r || 'errors' in r);

function refresh(...ids: string[]) {
  revalidatePath('/documents');
  for (const id of ids) revalidatePath(`/documents/${id}`);
  revalidatePath('/');
}

// ─── Editor ─────────────────────────────────────────────────────────────────

export type SaveTarget = { id: string; type?: undefined } | { id?: undefined; type: 'devis' | 'facture' };

/**
 * Creates or updates a draft from the editor's payload. The API's schemas validate it (every invalid field at
 * once, under its dotted path), then the services apply their own rules (a discount's VAT group, the contact…).
 */
export async function saveDocumentAction(_prev: ActionState, input: { target: SaveTarget; payload: Record<string, unknown> }): Promise<ActionState> {
  const staff = await requireStaffOrg();
  const { target, payload } = input;
  let saved: BillingDocument | ActionState;
  if (target.id) {
    const id = Id.parse(target.id);
    const parsed = DocumentPatch.safeParse(payload);
    if (!parsed.success) return { errors: fieldErrors(parsed.error) };
    saved = await attempt(() => updateDocument(staff.db, staff.orgId, id, parsed.data));
  } else {
    const parsed = DocumentCreate.safeParse({ ...payload, type: target.type });
    if (!parsed.success) return { errors: fieldErrors(parsed.error) };
    saved = await attempt(() => createDocument(staff.db, staff.orgId, parsed.data));
  }
  if (refused(saved)) return saved;
  refresh(saved.id);
  redirect(`/documents/${saved.id}`);
}

export interface ContactChoice {
  id: string;
  name: string;
  detail: string | null;
  default_payment_terms: string | null;
  default_discount_terms: string | null;
}

/** The contact picker's search: the org's live contacts matching `q` (the contacts list's search). */
export async function searchContactsAction(q: string): Promise<ContactChoice[]> {
  const staff = await requireStaffOrg();
  const query = q.trim().slice(0, 200);
  const page = await listContacts(staff.db, staff.orgId, { q: query || undefined, limit: 8, include_deleted: false });
  return page.data.map((c) => ({
    id: c.id,
    name: c.display_name ?? c.id,
    detail: [c.email, c.city].filter(Boolean).join(' · ') || null,
    default_payment_terms: c.default_payment_terms,
    default_discount_terms: c.default_discount_terms,
  }));
}

/** The product picker's search: catalogue products whose name contains `q`, unit as a Rec 20 code. */
export async function searchProductsAction(q: string): Promise<ProductChoice[]> {
  const staff = await requireStaffOrg();
  const query = q.trim().slice(0, 200);
  const page = await listProducts(staff.db, staff.orgId, { q: query || undefined, limit: 8 });
  return page.data.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    unit_code: unitCodeOf(p.unit),
    unit_price_cents: p.unit_price_cents,
    vat_rate: p.vat_rate,
  }));
}

// ─── Transitions (bound to the document id) ─────────────────────────────────

/** A transition that keeps the user on the document: its refusal, or a confirmation. */
async function transition(id: string, run: (db: Db, orgId: string, id: string) => Promise<unknown>, done: string): Promise<ActionState> {
  const staff = await requireStaffOrg();
  const docId = Id.parse(id);
  const result = await attempt(() => run(staff.db, staff.orgId, docId));
  if (refused(result)) return result;
  refresh(docId);
  return { done };
}

/** As POST /finalize: the PDF is queued for rendering once the finalization has committed. */
export async function finalizeAction(id: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  return transition(
    id,
    async (db, orgId, docId) => {
      await finalizeDocument(db, orgId, docId);
    },
    'Document finalisé : il est numéroté et scellé dans la chaîne d’intégrité.',
  );
}

export async function acceptAction(id: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  return transition(id, acceptQuote, 'Devis accepté.');
}

export async function rejectAction(id: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  return transition(id, rejectQuote, 'Devis refusé.');
}

/** As POST /cancel: the credit note a cancelled invoice gets is queued for rendering. */
export async function cancelAction(id: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  return transition(
    id,
    async (db, orgId, docId) => {
      await cancelDocument(db, orgId, docId);
    },
    'Document annulé.',
  );
}

/** A draft disappears (it never had a number); back to the list. */
export async function deleteDraftAction(id: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const staff = await requireStaffOrg();
  const docId = Id.parse(id);
  const result = await attempt(() => deleteDocument(staff.db, staff.orgId, docId));
  if (refused(result)) return result;
  refresh(docId);
  redirect('/documents?deleted=1');
}

/** Actions that create a document open it. */
async function opening(run: () => Promise<BillingDocument>, sourceId: string): Promise<ActionState> {
  const result = await attempt(run);
  if (refused(result)) return result;
  refresh(sourceId, result.id);
  redirect(`/documents/${result.id}`);
}

export async function duplicateAction(id: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const staff = await requireStaffOrg();
  const docId = Id.parse(id);
  return opening(() => duplicateDocument(staff.db, staff.orgId, docId), docId);
}

export async function depositAction(id: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const staff = await requireStaffOrg();
  const docId = Id.parse(id);
  const text = String(form.get('percentage') ?? '').trim().replace(',', '.');
  const parsed = DepositBody.safeParse(text ? { percentage: text } : {});
  if (!parsed.success) return { errors: fieldErrors(parsed.error) };
  return opening(() => createDeposit(staff.db, staff.orgId, docId, parsed.data), docId);
}

/** The invoice a conversion would create (dry run: nothing is written). */
export async function convertPreviewAction(id: string): Promise<{ preview: BillingDocument } | ActionState> {
  const staff = await requireStaffOrg();
  const docId = Id.parse(id);
  const result = await attempt(() => convertToFacture(staff.db, staff.orgId, docId, { dryRun: true }));
  return refused(result) ? result : { preview: result };
}

export async function convertAction(id: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const staff = await requireStaffOrg();
  const docId = Id.parse(id);
  return opening(() => convertToFacture(staff.db, staff.orgId, docId), docId);
}

/** A full credit note (no items) or a partial one (the lines given), as a draft to review and finalize. */
export async function creditNoteAction(id: string, _prev: ActionState, body: unknown): Promise<ActionState> {
  const staff = await requireStaffOrg();
  const docId = Id.parse(id);
  const parsed = CreditNoteBody.safeParse(body);
  if (!parsed.success) return { errors: fieldErrors(parsed.error) };
  return opening(() => createCreditNote(staff.db, staff.orgId, docId, parsed.data), docId);
}

// ─── Payments ───────────────────────────────────────────────────────────────

export async function recordPaymentAction(id: string, _prev: ActionState, form: FormData): Promise<ActionState> {
  const staff = await requireStaffOrg();
  const docId = Id.parse(id);
  const amountText = String(form.get('amount') ?? '').replace(/€/g, '').trim();
  let amount: number;
  try {
    amount = parseEuros(amountText);
  } catch {
    return { errors: { amount: 'Montant en euros, par exemple 1200 ou 49,90.' } };
  }
  const text = (key: string) => {
    const v = String(form.get(key) ?? '').trim();
    return v === '' ? undefined : v;
  };
  const parsed = PaymentInput.safeParse({ amount, paid_at: text('paid_at'), method: text('method'), reference: text('reference') });
  if (!parsed.success) return { errors: fieldErrors(parsed.error) };
  const result = await attempt(() => recordPayment(staff.db, staff.orgId, docId, parsed.data));
  if (refused(result)) return result;
  refresh(docId);
  return { done: result.status === 'paid' ? 'Paiement enregistré : la facture est payée.' : 'Paiement enregistré.' };
}

export async function deletePaymentAction(id: string, paymentId: string, _prev: ActionState, _form: FormData): Promise<ActionState> {
  const staff = await requireStaffOrg();
  const docId = Id.parse(id);
  const result = await attempt(() => deletePayment(staff.db, staff.orgId, docId, Id.parse(paymentId)));
  if (refused(result)) return result;
  refresh(docId);
  return { done: 'Paiement supprimé.' };
}

// ─── Chain ──────────────────────────────────────────────────────────────────

export type ChainCheck = { ok: boolean; verified: number; message: string };

/** chain:verify for the org, on demand: every hash recomputed in chain order. */
export async function verifyChainAction(): Promise<ChainCheck> {
  const staff = await requireStaffOrg();
  const report = await verifyChain(staff.db, staff.orgId);
  const b = report.first_broken;
  return {
    ok: report.ok,
    verified: report.verified,
    message: b
      ? `Chaîne rompue après ${report.verified} document(s) vérifié(s) : ${b.reason} à la position ${b.chain_index ?? '—'}${b.number ? ` (${b.number})` : ''}.`
      : `Chaîne vérifiée : ${report.verified} document(s) finalisé(s), chaque empreinte recalculée correspond.`,
  };
}
