'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import type { Db } from '@/db/client';
import { acceptQuote, type BillingDocument, cancelDocument, convertToFacture, createCreditNote, createDeposit, createDocument, CreditNoteBody, deleteDocument, DepositBody, DocumentCreate, DocumentPatch, duplicateDocument, FinalizationRefused, finalizeDocument, rejectQuote, unitCodeOf, updateDocument, verifyChain } from '@/lib/domain/documents';
import { plural, pluralWord } from '@/lib/platform/format';
import { createOnlineRefund, deletePayment, OnlineRefundInput, PaymentInput, recordPayment, recordRefund, RefundInput } from '@/lib/domain/payments';
import { listProducts } from '@/lib/domain/products';
import { listContacts } from '@/lib/domain/contacts';
import { formAction, idOf, refuse, staffAction } from '@/lib/platform/next';
import { parseEuros } from '@/lib/platform/money';
import type { ProductChoice } from './editor-model';
import { createInlineContact, type InlineContactInput } from './inline-contact';

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
export const saveDocumentAction = formAction(async ({ db, orgId }, { target, payload }: { target: SaveTarget; payload: Record<string, unknown> }) => {
  const saved = target.id
    ? await updateDocument(db, orgId, idOf(target.id), DocumentPatch.parse(payload))
    : await createDocument(db, orgId, DocumentCreate.parse({ ...payload, type: target.type }));
  refresh(saved.id);
  redirect(`/documents/${saved.id}`);
});

export interface ContactChoice {
  id: string;
  name: string;
  detail: string | null;
  default_payment_terms: string | null;
  default_discount_terms: string | null;
}

/** The contact picker's search: the org's live contacts matching `q` (the contacts list's search). */
export const searchContactsAction = staffAction(async ({ db, orgId }, q: string): Promise<ContactChoice[]> => {
  const query = q.trim().slice(0, 200);
  const page = await listContacts(db, orgId, { q: query || undefined, limit: 8, include_deleted: false });
  return page.data.map((c) => ({
    id: c.id,
    name: c.display_name ?? c.id,
    detail: [c.email, c.city].filter(Boolean).join(' · ') || null,
    default_payment_terms: c.default_payment_terms,
    default_discount_terms: c.default_discount_terms,
  }));
});

/** "Créer « … »" in the client picker: the contact created through lib/domain/contacts, then picked (inline-contact.ts). */
export const createInlineContactAction = staffAction(async (staff, input: InlineContactInput) => {
  const created = await createInlineContact(staff, input);
  revalidatePath('/contacts');
  return created;
});

/** The product picker's search: catalogue products whose name contains `q`, unit as a Rec 20 code. */
export const searchProductsAction = staffAction(async ({ db, orgId }, q: string): Promise<ProductChoice[]> => {
  const query = q.trim().slice(0, 200);
  const page = await listProducts(db, orgId, { q: query || undefined, limit: 8 });
  return page.data.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    unit_code: unitCodeOf(p.unit),
    unit_price_cents: p.unit_price_cents,
    vat_rate: p.vat_rate,
  }));
});

// ─── Transitions (bound to the document id) ─────────────────────────────────

/** An id bound by the page can be replayed or forged: a document not in the org is refused like a gone one. */
const onDocument = { notFound: 'Document introuvable.' } as const;

/** A transition that keeps the user on the document: its refusal, or a confirmation. */
const transition = (run: (db: Db, orgId: string, id: string) => Promise<unknown>, done: string) =>
  formAction(async ({ db, orgId }, _form: FormData, id: string) => {
    const docId = idOf(id, 'Document');
    await run(db, orgId, docId);
    refresh(docId);
    return { done };
  }, onDocument);

/**
 * As POST /finalize: the PDF is queued for rendering once the finalization has committed.
 * The document's rules refused (finalization-rules.ts) are shown each beside its field name, in French.
 */
export const finalizeAction = transition(async (db, orgId, docId) => {
  try {
    await finalizeDocument(db, orgId, docId);
  } catch (err) {
    if (err instanceof FinalizationRefused) refuse(Object.fromEntries(err.refusals.map((r) => [r.field, r.fr])));
    throw err;
  }
}, 'Document finalisé : il est numéroté et scellé dans la chaîne d’intégrité.');

export const acceptAction = transition(acceptQuote, 'Devis accepté.');

export const rejectAction = transition(rejectQuote, 'Devis refusé.');

/** As POST /cancel: the credit note a cancelled invoice gets is queued for rendering. */
export const cancelAction = transition(async (db, orgId, docId) => {
  await cancelDocument(db, orgId, docId);
}, 'Document annulé.');

/** A draft disappears (it never had a number); back to the list. */
export const deleteDraftAction = formAction(async ({ db, orgId }, _form: FormData, id: string) => {
  const docId = idOf(id, 'Document');
  await deleteDocument(db, orgId, docId);
  refresh(docId);
  redirect('/documents?deleted=1');
}, onDocument);

/** Actions that create a document open it. */
async function opening(created: BillingDocument, sourceId: string): Promise<never> {
  refresh(sourceId, created.id);
  redirect(`/documents/${created.id}`);
}

export const duplicateAction = formAction(async ({ db, orgId }, _form: FormData, id: string) => {
  const docId = idOf(id, 'Document');
  return opening(await duplicateDocument(db, orgId, docId), docId);
}, onDocument);

export const depositAction = formAction(
  async ({ db, orgId }, input, id: string) => {
    const docId = idOf(id, 'Document');
    return opening(await createDeposit(db, orgId, docId, input), docId);
  },
  {
    ...onDocument,
    input: (form: FormData) => {
      const text = String(form.get('percentage') ?? '').trim().replace(',', '.');
      return DepositBody.parse(text ? { percentage: text } : {});
    },
  },
);

/** The invoice a conversion would create (dry run: nothing is written). */
export const convertPreviewAction = staffAction(async ({ db, orgId }, id: string) => convertToFacture(db, orgId, idOf(id, 'Document'), { dryRun: true }));

export const convertAction = formAction(async ({ db, orgId }, _form: FormData, id: string) => {
  const docId = idOf(id, 'Document');
  return opening(await convertToFacture(db, orgId, docId), docId);
}, onDocument);

/** A full credit note (no items) or a partial one (the lines given), as a draft to review and finalize. */
export const creditNoteAction = formAction(
  async ({ db, orgId }, input, id: string) => {
    const docId = idOf(id, 'Document');
    return opening(await createCreditNote(db, orgId, docId, input), docId);
  },
  { ...onDocument, input: (body: unknown) => CreditNoteBody.parse(body) },
);

// ─── Payments ───────────────────────────────────────────────────────────────

/** The payment and refund forms' fields: euros typed become cents, blank texts are left out. */
function moneyMovement(form: FormData) {
  let amount = 0;
  try {
    amount = parseEuros(String(form.get('amount') ?? '').replace(/€/g, '').trim());
  } catch {
    refuse({ amount: 'Montant en euros, par exemple 1200 ou 49,90.' });
  }
  const text = (key: string) => {
    const v = String(form.get(key) ?? '').trim();
    return v === '' ? undefined : v;
  };
  return { amount, paid_at: text('paid_at'), method: text('method'), reference: text('reference') };
}

export const recordPaymentAction = formAction(
  async ({ db, orgId }, input, id: string) => {
    const docId = idOf(id, 'Document');
    const result = await recordPayment(db, orgId, docId, input);
    refresh(docId);
    return { done: result.status === 'paid' ? 'Paiement enregistré : la facture est payée.' : 'Paiement enregistré.' };
  },
  { ...onDocument, input: (form: FormData) => PaymentInput.parse(moneyMovement(form)) },
);

/** As POST /v1/invoices/{id}/refunds: on the invoice `id`, recorded on its credit note when it has one. */
export const recordRefundAction = formAction(
  async ({ db, orgId }, input, id: string) => {
    const docId = idOf(id, 'Document');
    const result = await recordRefund(db, orgId, docId, input);
    refresh(docId, result.payment!.document_id);
    return { done: 'Remboursement enregistré.' };
  },
  { ...onDocument, input: (form: FormData) => RefundInput.parse(moneyMovement(form)) },
);

/**
 * « Rembourser par carte », as POST /v1/invoices/{id}/online-refunds: the form's key (one per page load) makes a double
 * submission one refund at Stripe.
 */
export const refundByCardAction = formAction(
  async ({ db, orgId }, input, id: string) => {
    const docId = idOf(id, 'Document');
    const refund = await createOnlineRefund(db, orgId, docId, input);
    refresh(docId);
    // The credit note's page too (the form stands there), whatever its id.
    revalidatePath('/documents/[id]', 'page');
    return { done: refund.status === 'succeeded' ? 'Remboursement par carte effectué.' : 'Remboursement par carte demandé : il sera compté dès que Stripe l’aura confirmé.' };
  },
  {
    ...onDocument,
    input: (form: FormData) => {
      const key = String(form.get('idempotency_key') ?? '').trim();
      return { ...OnlineRefundInput.parse({ amount: moneyMovement(form).amount }), idempotency_key: key ? `form:${key.slice(0, 100)}` : null };
    },
  },
);

export const deletePaymentAction = formAction(async ({ db, orgId }, _form: FormData, id: string, paymentId: string) => {
  const docId = idOf(id, 'Document');
  await deletePayment(db, orgId, docId, idOf(paymentId, 'Payment'));
  refresh(docId);
  return { done: 'Paiement supprimé.' };
}, { notFound: 'Document ou paiement introuvable.' });

// ─── Chain ──────────────────────────────────────────────────────────────────

export type ChainCheck = { ok: boolean; verified: number; message: string };

/** chain:verify for the org, on demand: every hash recomputed in chain order. */
export const verifyChainAction = staffAction(async ({ db, orgId }): Promise<ChainCheck> => {
  const report = await verifyChain(db, orgId);
  const b = report.first_broken;
  const skipped = report.skipped_numbers.map((g) => `${g.type} ${g.year} : ${g.from === g.to ? g.from : `${g.from} à ${g.to}`}`);
  const chain = b
    ? `Chaîne rompue après ${plural(report.verified, 'document')} ${pluralWord(report.verified, 'vérifié')} : ${b.reason} à la position ${b.chain_index ?? '—'}${b.number ? ` (${b.number})` : ''}.`
    : `Chaîne vérifiée : ${plural(report.verified, 'document')} ${pluralWord(report.verified, 'finalisé')}, chaque empreinte recalculée correspond.`;
  return {
    ok: report.ok,
    verified: report.verified,
    message: skipped.length ? `${chain} Numéros sautés (aucun document finalisé ne les porte) : ${skipped.join(' ; ')}.` : chain,
  };
}, { read: true });
