import type { Db, Tx } from '@/db/client';
import { documents } from '@/db/schema';
import { validationError } from '@/lib/platform/errors';
import { addDays, dueDateFromTerms, todayParis } from '@/lib/platform/dates';
import { type ContactRow, type DocumentInsert, type DocumentRow, loadLiveContact, type PreparedLines, prepareItems, recordDocumentEvent, totalsColumns, writeItems, withStates } from './documents';
import { type InvoiceSettingsRow, loadSettings } from '@/lib/domain/invoice-settings';
import { type BillingDocument, type DocumentCreate, PaymentPlanConfig } from './schemas';

type DraftFields = Pick<
  DocumentInsert,
  'type' | 'issue_date' | 'due_date' | 'validity_date' | 'payment_plan_kind' | 'payment_plan_config'
>;

/**
 * The rules every draft obeys after a create or a patch: dates in order (a deposit invoice may fall due before
 * its issue date, BR-FR-CO-07), and a payment plan whose config matches its kind. Returns the normalized config.
 */
export function checkDraft(d: DraftFields): unknown {
  if (d.due_date && d.due_date < d.issue_date! && d.type !== 'acompte') {
    throw validationError('due_date', 'due_date: must not be before issue_date');
  }
  if (d.validity_date && d.validity_date < d.issue_date!) {
    throw validationError('validity_date', 'validity_date: must not be before issue_date');
  }
  const kind = d.payment_plan_kind ?? 'none';
  const config = d.payment_plan_config ?? null;
  if (kind === 'none') {
    if (config !== null) throw validationError('payment_plan_config', 'payment_plan_config: must be null when payment_plan_kind is none');
    return null;
  }
  const expected = kind === 'deposit_then_balance' ? '{"percentage": "30"}' : '{"count": 3}';
  const parsed = PaymentPlanConfig.safeParse(config);
  const fits = parsed.success && (kind === 'deposit_then_balance' ? 'percentage' in parsed.data : 'count' in parsed.data);
  if (!fits) throw validationError('payment_plan_config', `payment_plan_config: ${kind} needs ${expected}`);
  return parsed.data;
}

/** What an omitted field becomes: the contact's terms first, then the org's settings, then the law's defaults. */
export function draftDefaults(type: DocumentRow['type'], input: Partial<DocumentCreate>, contact: ContactRow, settings: InvoiceSettingsRow, today = todayParis()) {
  const issue_date = input.issue_date ?? today;
  const payment_terms = input.payment_terms !== undefined ? input.payment_terms : (contact.default_payment_terms ?? settings.default_payment_terms);
  return {
    issue_date,
    payment_terms,
    discount_terms: input.discount_terms !== undefined ? input.discount_terms : (contact.default_discount_terms ?? settings.default_discount_terms),
    vat_exigibility: input.vat_exigibility !== undefined ? input.vat_exigibility : settings.default_vat_exigibility,
    validity_date:
      input.validity_date !== undefined ? input.validity_date : type === 'devis' ? addDays(issue_date, settings.default_validity_days) : null,
    due_date:
      input.due_date !== undefined
        ? input.due_date
        : type === 'facture'
          ? dueDateFromTerms(issue_date, payment_terms)
          : type === 'acompte'
            ? issue_date
            : null,
  };
}

/** Inserts a draft and its lines (the caller's transaction); returns the row. */
export async function insertDraft(tx: Tx, orgId: string, values: Omit<DocumentInsert, 'org_id' | 'status'>, lines: PreparedLines): Promise<DocumentRow> {
  return (await insertDraftWithItems(tx, orgId, values, lines)).row;
}

/** insertDraft, with the lines as written (loadItems' rows and order). */
async function insertDraftWithItems(tx: Tx, orgId: string, values: Omit<DocumentInsert, 'org_id' | 'status'>, lines: PreparedLines) {
  const payment_plan_config = checkDraft(values);
  const [row] = await tx
    .insert(documents)
    .values({ ...values, payment_plan_config, org_id: orgId, status: 'draft', ...totalsColumns(lines.totals) })
    .returning();
  return { row: row!, items: await writeItems(tx, orgId, row!.id, lines, { fresh: true }) };
}

export async function createDocument(db: Db, orgId: string, input: DocumentCreate): Promise<BillingDocument> {
  return db.transaction(async (tx) => {
    const contact = await loadLiveContact(tx, orgId, input.contact_id);
    const settings = await loadSettings(tx, orgId);
    const lines = await prepareItems(tx, orgId, input.items ?? []);
    const { row, items } = await insertDraftWithItems(
      tx,
      orgId,
      {
        type: input.type,
        contact_id: contact.id,
        ...draftDefaults(input.type, input, contact, settings),
        service_date: input.service_date ?? null,
        title: input.title ?? null,
        description: input.description ?? null,
        notes: input.notes ?? null,
        payment_method: input.payment_method ?? null,
        delivery_address: input.delivery_address ?? null,
        operation_nature: input.operation_nature ?? null,
        deposit_request_percentage: input.deposit_request_percentage ?? null,
        execution_timeline: input.execution_timeline ?? null,
        payment_plan_kind: input.payment_plan_kind ?? 'none',
        payment_plan_config: input.payment_plan_config ?? null,
      },
      lines,
    );
    // The lines just written and the contact read above: the view needs no second read of either.
    return recordDocumentEvent(tx, orgId, 'invoice.created', withStates(row), { items, contact });
  });
}
