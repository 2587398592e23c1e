import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { inboundInvoices } from '@/db/schema';
import { ApiError, conflict, notFound } from '@/lib/platform/errors';
import { afterCursor, toPage } from '@/lib/platform/http';
import { getStorage, type StoredBody } from '@/lib/platform/storage';
import type { InboundListQuery } from './schemas';
import { type InboundRow, toInboundInvoice } from './view';

/** The day (Europe/Paris) the PA received it. */
const receivedDay = sql`(timezone('Europe/Paris', ${inboundInvoices.received_at}))::date`;

export function inboundFilters(orgId: string, query: Omit<InboundListQuery, 'limit' | 'cursor'>): SQL | undefined {
  return and(
    eq(inboundInvoices.org_id, orgId),
    query.parse_status ? eq(inboundInvoices.parse_status, query.parse_status) : undefined,
    query.sender_siren ? eq(inboundInvoices.sender_siren, query.sender_siren) : undefined,
    query.received_from ? sql`${receivedDay} >= ${query.received_from}::date` : undefined,
    query.received_to ? sql`${receivedDay} <= ${query.received_to}::date` : undefined,
  );
}

/** `GET /v1/invoices/inbound`: newest first (fetched last first), keyset-paged. */
export async function listInboundInvoices(db: Db, orgId: string, query: InboundListQuery) {
  const rows = await db
    .select()
    .from(inboundInvoices)
    .where(and(inboundFilters(orgId, query), afterCursor(inboundInvoices.id, query.cursor)))
    .orderBy(desc(inboundInvoices.id))
    .limit(query.limit + 1);
  return toPage(rows, query.limit, toInboundInvoice);
}

/** The row of one of the org's received invoices; another org's, or none: 404. */
export async function loadInbound(db: Db, orgId: string, id: string): Promise<InboundRow> {
  const [row] = await db
    .select()
    .from(inboundInvoices)
    .where(and(eq(inboundInvoices.org_id, orgId), eq(inboundInvoices.id, id)));
  if (!row) throw notFound('Received invoice');
  return row;
}

/** The answer (lifecycle token) the org sent for each of these received invoices, for the inbox: id → token. */
export async function inboundAnswers(db: Db, orgId: string, ids: readonly string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: inboundInvoices.id, lifecycle_status: inboundInvoices.lifecycle_status })
    .from(inboundInvoices)
    .where(and(eq(inboundInvoices.org_id, orgId), inArray(inboundInvoices.id, [...ids])));
  return new Map(rows.map((r) => [r.id, r.lifecycle_status]));
}

export const getInboundInvoice = async (db: Db, orgId: string, id: string) => toInboundInvoice(await loadInbound(db, orgId, id));

export interface InboundPdf {
  /** Validator of the file: derived from its SHA-256, never the digest itself (the spec keeps that unexposed). */
  etag: string;
  size: number;
  fileName: string;
  open(): Promise<StoredBody>;
}

export const inboundPdfUnavailable = () =>
  new ApiError(409, 'inbound_pdf_unavailable', 'This received invoice has no readable PDF: its file is an XML that could not be read (see parse_status).');

/**
 * The readable PDF of a received invoice: 409 pdf_not_ready while it is pending, 409 inbound_pdf_unavailable when
 * there is none (an XML that did not parse, or whose view could not be rendered).
 */
export async function inboundPdf(db: Db, orgId: string, id: string): Promise<InboundPdf> {
  const row = await loadInbound(db, orgId, id);
  if (row.parse_status === 'pending') throw conflict('pdf_not_ready', 'The PDF is not ready: the received invoice is still being read (parse_status pending).');
  const key = row.pdf_storage_key;
  if (!key) throw inboundPdfUnavailable();
  const head = await getStorage().head(key);
  if (!head) throw new Error(`The readable PDF of received invoice ${id} is missing from storage (key ${key}).`);
  const name = (row.invoice_number ?? row.id).replace(/[^\w.-]+/g, '_').slice(0, 80);
  return {
    etag: createHash('sha256').update(`inbound-pdf:${head.sha256}`).digest('hex').slice(0, 32),
    size: head.size,
    fileName: `facture-recue-${name}.pdf`,
    async open() {
      const object = await getStorage().get(key);
      if (!object) throw new Error(`The readable PDF of received invoice ${id} is missing from storage (key ${key}).`);
      return object;
    },
  };
}
