import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { paymentAccounts } from '@/db/schema';
import type { Conn } from '@/lib/domain/documents';
import { ApiError, conflict, validationError } from '@/lib/platform/errors';
import { getOrg } from '@/lib/platform/orgs';
import type { AccountReadiness, PaymentProvider } from './provider';
import { requireProvider } from './stripe-provider';

export type PaymentAccountRow = typeof paymentAccounts.$inferSelect;

/** The org's connected account and its readiness as last read (for operators: the CLI, Settings → Paiements). */
export interface PaymentAccountState extends AccountReadiness {
  org_id: string;
  refreshed_at: string;
}

const toState = (row: PaymentAccountRow): PaymentAccountState => ({
  org_id: row.org_id,
  account_id: row.account_id,
  charges_enabled: row.charges_enabled,
  details_submitted: row.details_submitted,
  card_payments: row.card_payments,
  sepa_debit_payments: row.sepa_debit_payments,
  requirements_due: row.requirements_due,
  refreshed_at: row.refreshed_at.toISOString(),
});

export async function loadPaymentAccount(conn: Conn, orgId: string): Promise<PaymentAccountRow | null> {
  const [row] = await conn.select().from(paymentAccounts).where(eq(paymentAccounts.org_id, orgId));
  return row ?? null;
}

/** The org's connected account, or 409 payments_account_required. */
export async function requireAccount(conn: Conn, orgId: string): Promise<PaymentAccountRow> {
  const row = await loadPaymentAccount(conn, orgId);
  if (!row) throw conflict('payments_account_required', 'This organisation has no connected payment account: connect one in Settings → Paiements.');
  return row;
}

/** The org's connected account if it can take payments now, else 409 payments_account_not_ready. */
export async function requireReadyAccount(conn: Conn, orgId: string): Promise<PaymentAccountRow> {
  const row = await requireAccount(conn, orgId);
  if (!row.charges_enabled) {
    const due = row.requirements_due.length ? ` The provider still needs: ${row.requirements_due.join(', ')}.` : '';
    throw conflict('payments_account_not_ready', `The connected payment account cannot take payments yet: finish its onboarding in Settings → Paiements.${due}`);
  }
  return row;
}

const ACCOUNT_ID = /^acct_[A-Za-z0-9]{1,64}$/;

/**
 * Links an existing provider account to the org (replacing the one it had) and reads its readiness at once
 * (`payments:connect`). The provider is asked before anything is written; an account already linked to another
 * org is refused (409 payments_account_taken): its payments would land in the wrong books.
 */
export async function connectAccount(db: Db, orgId: string, accountId: string, provider: PaymentProvider = requireProvider()): Promise<PaymentAccountState> {
  if (!ACCOUNT_ID.test(accountId)) throw validationError('account', 'account: a provider account id such as acct_1AbC…');
  await getOrg(db, orgId);
  const readiness = await provider.retrieveAccount(accountId);
  return db.transaction(async (tx) => {
    const [taken] = await tx.select({ org_id: paymentAccounts.org_id }).from(paymentAccounts).where(eq(paymentAccounts.account_id, accountId));
    if (taken && taken.org_id !== orgId) throw conflict('payments_account_taken', `Account ${accountId} is already connected to another organisation.`, 'account');
    return toState(await saveReadiness(tx, orgId, readiness));
  });
}

/** Writes what the provider said about the org's account (connection, onboarding return, account.updated). */
export async function saveReadiness(conn: Conn, orgId: string, readiness: AccountReadiness, at = new Date()): Promise<PaymentAccountRow> {
  const values = {
    account_id: readiness.account_id,
    charges_enabled: readiness.charges_enabled,
    details_submitted: readiness.details_submitted,
    card_payments: readiness.card_payments,
    sepa_debit_payments: readiness.sepa_debit_payments,
    requirements_due: readiness.requirements_due,
    refreshed_at: at,
  };
  const [row] = await conn
    .insert(paymentAccounts)
    .values({ org_id: orgId, ...values })
    .onConflictDoUpdate({ target: paymentAccounts.org_id, set: { ...values, updated_at: at } })
    .returning();
  if (!row) throw new ApiError(500, 'internal_error', 'The payment account was not saved.');
  return row;
}

export async function paymentAccountState(conn: Conn, orgId: string): Promise<PaymentAccountState | null> {
  const row = await loadPaymentAccount(conn, orgId);
  return row ? toState(row) : null;
}
