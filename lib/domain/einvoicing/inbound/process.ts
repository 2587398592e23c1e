import { and, eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { inboundInvoices } from '@/db/schema';
import { recordEvent } from '@/lib/platform/events';
import { getStorage, readAll } from '@/lib/platform/storage';
import { type InboundParseResult, isPdf, parseInboundBounded, renderInboundPdfBounded } from '../parse';
import { type InboundRow, readablePdfKey, toInboundInvoice } from './view';
import { log } from '@/lib/platform/log';

/** What the inbox shows beyond the API's fields (the `parsed` column): lines, VAT groups, buyer, the parse error's code. */
export interface InboundDetail {
  document_type?: 'invoice' | 'credit_note';
  type_code?: string | null;
  profile?: string | null;
  seller_siret?: string | null;
  seller_vat_number?: string | null;
  buyer_name?: string | null;
  buyer_siren?: string | null;
  amount_due?: number | null;
  vat_groups?: unknown[];
  lines?: unknown[];
  /** BT-106, BT-107, BT-108 and the document-level allowances and charges (parse's InboundAllowanceCharge). */
  line_total?: number | null;
  allowance_total?: number | null;
  charge_total?: number | null;
  allowances_charges?: unknown[];
  /** parse_failed: the parser's code (dtd_refused, malformed_xml…) and the field concerned. */
  error_code?: string;
  error_field?: string | null;
}

function columnsOf(result: InboundParseResult): Partial<InboundRow> {
  if (result.status === 'parse_failed') {
    const detail: InboundDetail = { error_code: result.error.code, error_field: result.error.field };
    return { parse_status: 'parse_failed', format: result.format, parse_error: result.error.message, parsed: detail };
  }
  const { fields: f } = result;
  const detail: InboundDetail = {
    document_type: f.document_type,
    type_code: f.type_code,
    profile: f.profile,
    seller_siret: f.seller_siret,
    seller_vat_number: f.seller_vat_number,
    buyer_name: f.buyer_name,
    buyer_siren: f.buyer_siren,
    amount_due: f.amount_due,
    vat_groups: f.vat_groups,
    lines: f.lines,
    line_total: f.line_total ?? null,
    allowance_total: f.allowance_total ?? null,
    charge_total: f.charge_total ?? null,
    allowances_charges: f.allowances_charges ?? [],
  };
  return {
    parse_status: 'parsed',
    format: result.format,
    parse_error: null,
    invoice_number: f.invoice_number,
    issue_date: f.issue_date,
    due_date: f.due_date,
    currency: f.currency,
    seller_name: f.seller_name,
    sender_siren: f.sender_siren,
    total_ht: f.total_ht,
    total_vat: f.total_vat,
    total_ttc: f.total_ttc,
    parsed: detail,
  };
}

/**
 * The readable PDF of a received file: a PDF original is its own (a Factur-X, or a PDF the parser could not read:
 * staff still see what came); an XML that parsed gets one rendered with our invoice templates, stored beside the
 * original. An XML that did not parse has none. A rendering failure (the sandbox's time or heap included) is logged
 * and leaves none: the parsed fields stand, the inbox says the view is missing.
 */
async function readablePdf(row: InboundRow, bytes: Uint8Array, result: InboundParseResult): Promise<string | null> {
  if (isPdf(bytes)) return row.storage_key;
  if (result.status !== 'parsed') return null;
  try {
    const pdf = await renderInboundPdfBounded(result.fields, { format: result.format, received_at: row.received_at });
    const key = readablePdfKey(row.org_id, row.flow_id);
    await getStorage().put(key, pdf, { contentType: 'application/pdf' });
    return key;
  } catch (err) {
    log.error({ module: 'einvoicing', received_invoice_id: row.id, err }, `rendering the readable PDF of received invoice ${row.id} failed`);
    return null;
  }
}

/**
 * Parses a stored received invoice still `pending`: its fields (parsed) or the parser's error (parse_failed), its
 * readable PDF, then `inbound_invoice.received` in the transaction that leaves `pending` — once, whoever gets there
 * first (the update is conditional). Both run in lib/platform/sandbox: the file is anyone's on the network. The parser
 * never throws; a storage fault or a busy sandbox does, and leaves the row pending for the next run. Returns the row as it stands.
 */
export async function processInbound(db: Db, orgId: string, id: string): Promise<InboundRow> {
  const [row] = await db.select().from(inboundInvoices).where(and(eq(inboundInvoices.org_id, orgId), eq(inboundInvoices.id, id)));
  if (!row) throw new Error(`Received invoice ${id} of org ${orgId} does not exist.`);
  if (row.parse_status !== 'pending') return row;
  const object = await getStorage().get(row.storage_key);
  if (!object) throw new Error(`The original of received invoice ${id} is missing from storage (key ${row.storage_key}).`);
  const bytes = await readAll(object.body);
  const result = await parseInboundBounded(bytes, { mime: row.content_type });
  const pdfKey = await readablePdf(row, bytes, result);
  return db.transaction(async (tx) => {
    const [done] = await tx
      .update(inboundInvoices)
      .set({ ...columnsOf(result), pdf_storage_key: pdfKey })
      .where(and(eq(inboundInvoices.id, id), eq(inboundInvoices.parse_status, 'pending')))
      .returning();
    if (!done) {
      const [current] = await tx.select().from(inboundInvoices).where(eq(inboundInvoices.id, id));
      return current!;
    }
    await recordEvent(tx, orgId, 'inbound_invoice.received', toInboundInvoice(done));
    return done;
  });
}
