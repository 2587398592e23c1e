import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { contacts, documentRenders, documents, invoiceSettings, onlinePayments, orgs, paymentAccounts, paymentLinks } from '@/db/schema';
import type { Language } from '@/lib/platform/format';
import { type BankTransfer, bankTransfer } from './bank-transfer';
import { hashToken } from './payment-links';
import type { CheckoutMethod, PaymentProvider } from './provider';
import { paymentProvider } from './stripe-provider';
import { log } from '@/lib/platform/log';

/**
 * The public /pay/<token> page's model (DESIGN §8): what the payer sees of the seller and the document, and whether
 * and how it can be paid, online or by transfer. One statement by the token's SHA-256: the page is public and must
 * stay fast.
 */

export type PayState = 'payable' | 'paid' | 'cancelled';
/** Why a payable document offers no form: online payment off here, no connected account, or one not ready. */
export type OnlineUnavailable = 'disabled' | 'no_account' | 'not_ready';

export interface PayLine {
  kind: 'product' | 'discount';
  description: string;
  details: string | null;
  quantity: string;
  unit: string | null;
  unit_price: number;
  vat_rate: string;
  total_ht: number;
}

/** The seller as the document was issued (its frozen snapshot), with the org's current logo. */
export interface PaySeller {
  name: string;
  legal_name: string | null;
  legal_form: string | null;
  share_capital_cents: number | null;
  siren: string | null;
  siret: string | null;
  vat_number: string | null;
  rcs: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  email: string | null;
  phone: string | null;
  logo_data_url: string | null;
}

export interface PayPage {
  org_id: string;
  document_id: string;
  token_hash: string;
  seller: PaySeller;
  document: {
    type: 'facture' | 'acompte';
    number: string;
    title: string | null;
    issue_date: string;
    due_date: string | null;
    total_ht: number;
    total_tva: number;
    total_ttc: number;
    lines: PayLine[];
    /** The sealed PDF is stored and can be downloaded. */
    pdf_ready: boolean;
  };
  paid: number;
  /** What is left to pay (total_ttc − payments), never below zero. */
  balance: number;
  state: PayState;
  /** A SEPA debit of this document is on its way: nothing more is asked meanwhile. */
  processing: boolean;
  /** The methods offered (empty when online payment is unavailable or the document is not payable). */
  methods: CheckoutMethod[];
  unavailable: OnlineUnavailable | null;
  /**
   * Paying by credit transfer to the org's IBAN (its invoicing settings now: where it wants the money today), with
   * the EPC QR code; null when it has none, or nothing is asked (paid, cancelled, a debit processing).
   */
  transfer: BankTransfer | null;
  /** The org's provider account (never shown), the buyer's e-mail for Checkout. */
  account_id: string | null;
  contact_email: string | null;
}

const linesSql = sql<PayLine[]>`(select coalesce(json_agg(json_build_object(
    'kind', i.kind, 'description', i.description, 'details', i.details, 'quantity', i.quantity, 'unit', i.unit,
    'unit_price', i.unit_price, 'vat_rate', i.vat_rate, 'total_ht', i.total_ht) order by i.position), '[]'::json)
  from document_items i where i.org_id = ${documents.org_id} and i.document_id = ${documents.id})`;

/** Σ payments, and whether a SEPA debit is processing: both read in the page's one statement. */
const paidSql = sql<string>`(select coalesce(sum(p.amount), 0) from payments p where p.org_id = ${documents.org_id} and p.document_id = ${documents.id})`;
const processingSql = sql<boolean>`exists (select 1 from online_payments op
  where op.org_id = ${documents.org_id} and op.document_id = ${documents.id} and op.status = 'processing')`;

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,100}$/;

/** The org and document a live link leads to (the PDF download), or null. */
export async function payLinkTarget(db: Db, token: string): Promise<{ org_id: string; document_id: string } | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [row] = await db
    .select({ org_id: paymentLinks.org_id, document_id: paymentLinks.document_id })
    .from(paymentLinks)
    .where(and(eq(paymentLinks.token_hash, hashToken(token)), sql`(${paymentLinks.expires_at} is null or ${paymentLinks.expires_at} > now())`));
  return row ?? null;
}

/** The page of a token, or null for an unknown (or expired) token, or a document that is not an issued invoice. */
export async function loadPayPage(db: Db, token: string, provider: PaymentProvider | null = paymentProvider()): Promise<PayPage | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const token_hash = hashToken(token);
  const [row] = await db
    .select({
      org_id: paymentLinks.org_id,
      document_id: paymentLinks.document_id,
      live: sql<boolean>`(${paymentLinks.expires_at} is null or ${paymentLinks.expires_at} > now())`,
      type: documents.type,
      status: documents.status,
      number: documents.number,
      title: documents.title,
      issue_date: documents.issue_date,
      due_date: documents.due_date,
      total_ht: documents.total_ht,
      total_tva: documents.total_tva,
      total_ttc: documents.total_ttc,
      finalized_at: documents.finalized_at,
      render_status: sql<string>`coalesce(${documentRenders.status}, 'pending')`,
      seller_snapshot: documents.seller_snapshot,
      org_name: orgs.name,
      logo_data_url: orgs.logo_data_url,
      account_id: paymentAccounts.account_id,
      charges_enabled: paymentAccounts.charges_enabled,
      card_payments: paymentAccounts.card_payments,
      sepa_debit_payments: paymentAccounts.sepa_debit_payments,
      contact_email: contacts.email,
      iban: invoiceSettings.iban,
      bic: invoiceSettings.bic,
      paid: paidSql,
      processing: processingSql,
      lines: linesSql,
    })
    .from(paymentLinks)
    .innerJoin(documents, and(eq(documents.id, paymentLinks.document_id), eq(documents.org_id, paymentLinks.org_id)))
    .innerJoin(orgs, eq(orgs.id, paymentLinks.org_id))
    .leftJoin(paymentAccounts, eq(paymentAccounts.org_id, paymentLinks.org_id))
    .leftJoin(invoiceSettings, eq(invoiceSettings.org_id, paymentLinks.org_id))
    .leftJoin(contacts, and(eq(contacts.id, documents.contact_id), eq(contacts.org_id, documents.org_id)))
    // The render state is pdf's row (by the document's primary key); none yet reads as pending.
    .leftJoin(documentRenders, eq(documentRenders.document_id, documents.id))
    .where(eq(paymentLinks.token_hash, token_hash));
  if (!row?.live || !row.finalized_at || !row.number || (row.type !== 'facture' && row.type !== 'acompte')) return null;

  const paid = Number(row.paid);
  const balance = Math.max(0, row.total_ttc - paid);
  const state: PayState = row.status === 'cancelled' ? 'cancelled' : row.status === 'paid' || balance <= 0 ? 'paid' : 'payable';
  const unavailable: OnlineUnavailable | null = !provider ? 'disabled' : !row.account_id ? 'no_account' : !row.charges_enabled ? 'not_ready' : null;
  // A method is offered when the account may take it now; none active is an account not ready.
  const active: CheckoutMethod[] = [
    ...(row.card_payments === 'active' ? (['card'] as const) : []),
    ...(row.sepa_debit_payments === 'active' ? (['sepa_debit'] as const) : []),
  ];
  const offline = unavailable ?? (active.length ? null : 'not_ready');
  const snapshot = (row.seller_snapshot ?? {}) as Partial<PaySeller>;
  const sellerName = snapshot.name ?? row.org_name;
  const transfer =
    state === 'payable' && !row.processing && row.iban ? bankTransfer({ beneficiary: sellerName, iban: row.iban, bic: row.bic, amount: balance, reference: row.number }) : null;
  return {
    org_id: row.org_id,
    document_id: row.document_id,
    token_hash,
    seller: {
      name: sellerName,
      legal_name: snapshot.legal_name ?? null,
      legal_form: snapshot.legal_form ?? null,
      share_capital_cents: snapshot.share_capital_cents ?? null,
      siren: snapshot.siren ?? null,
      siret: snapshot.siret ?? null,
      vat_number: snapshot.vat_number ?? null,
      rcs: snapshot.rcs ?? null,
      address: snapshot.address ?? null,
      postal_code: snapshot.postal_code ?? null,
      city: snapshot.city ?? null,
      country: snapshot.country ?? null,
      email: snapshot.email ?? null,
      phone: snapshot.phone ?? null,
      logo_data_url: row.logo_data_url,
    },
    document: {
      type: row.type,
      number: row.number,
      title: row.title,
      issue_date: row.issue_date,
      due_date: row.due_date,
      total_ht: row.total_ht,
      total_tva: row.total_tva,
      total_ttc: row.total_ttc,
      lines: (row.lines ?? []).map((l) => ({ ...l, unit_price: Number(l.unit_price), total_ht: Number(l.total_ht) })),
      pdf_ready: row.render_status === 'ready',
    },
    paid,
    balance,
    state,
    processing: row.processing,
    methods: state === 'payable' && !offline && !row.processing ? active : [],
    unavailable: state === 'payable' ? offline : null,
    transfer,
    account_id: row.account_id,
    contact_email: row.contact_email,
  };
}

/**
 * The page's language: `?lang=fr|en` when given, else the first of French or English in Accept-Language (by its
 * q-values), else French.
 */
export function payLanguage(lang: string | string[] | null | undefined, acceptLanguage: string | null | undefined): Language {
  const asked = Array.isArray(lang) ? lang[0] : lang;
  if (asked === 'fr' || asked === 'en') return asked;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { lang: tag.trim().toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), i };
    })
    .filter((t) => (t.lang === 'fr' || t.lang === 'en') && t.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return (ranked[0]?.lang as Language | undefined) ?? 'fr';
}

/** What the page says on return from Checkout: received, processing (SEPA, or the provider's word not in yet), failed, cancelled. */
export type ReturnNotice = 'received' | 'processing' | 'failed' | 'cancelled';

/**
 * `?status=success&session=cs_…` and `?status=cancel`. A success is believed only for a session this document opened
 * (its online_payments row): settled by the webhook, or else as the provider tells of the session now (a card
 * payment is paid when the payer comes back; a SEPA debit is processing for days). A session of another document,
 * or none, changes nothing on the page.
 */
export async function returnNotice(
  db: Db,
  page: PayPage,
  status: string | undefined,
  sessionId: string | undefined,
  provider: PaymentProvider | null = paymentProvider(),
): Promise<ReturnNotice | null> {
  if (status === 'cancel') return page.state === 'payable' ? 'cancelled' : null;
  if (status !== 'success') return null;
  if (page.state === 'paid') return 'received';
  if (!sessionId || page.state !== 'payable') return null;
  const [attempt] = await db
    .select({ status: onlinePayments.status })
    .from(onlinePayments)
    .where(and(eq(onlinePayments.org_id, page.org_id), eq(onlinePayments.document_id, page.document_id), eq(onlinePayments.checkout_session_id, sessionId)));
  if (!attempt) return null;
  if (attempt.status === 'succeeded') return 'received';
  if (attempt.status === 'processing') return 'processing';
  if (attempt.status === 'failed') return 'failed';
  if (attempt.status !== 'open' || !provider || !page.account_id) return null;
  try {
    const session = await provider.retrieveCheckoutSession(page.account_id, sessionId);
    if (session.status !== 'complete') return null;
    return session.payment_status === 'paid' ? 'received' : 'processing';
  } catch (err) {
    // The payer came back from Checkout: without the provider's word, "processing" is true and asks nothing more.
    log.error(err, 'pay page: the checkout session could not be read');
    return 'processing';
  }
}
