import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { einvoicingEnrollments, inboundInvoices, invoiceSettings } from '@/db/schema';
import { getStorage } from '@/lib/platform/storage';
import { type FlowType, type PaConnector, PaError, type PaFlow } from '../port';
import { walkFlows } from '../lifecycle/walk';
import { processInbound } from './process';
import { originalKey } from './view';

/** The flows that are invoices addressed to the org (the annex: SupplierInvoice, a non-self-billed incoming invoice). */
export const INBOUND_FLOW_TYPES: readonly FlowType[] = ['SupplierInvoice'];
/** The annex's largest page. */
const PAGE = 100;
/** Pages read per run at most (10,000 flows); the next run goes on from the cursor. */
const MAX_PAGES = 100;

export interface FetchReport {
  /** Flows the search returned that were new to us (a row was created). */
  created: number;
  /** Flows the search returned again that were stored already. */
  existing: number;
  /** Rows a stopped run had left `pending`, parsed now. */
  repaired: number;
  /** Flows skipped because the PA refused to give them (not found, invalid): last_error of the cursor says which. */
  skipped: number;
}

/**
 * One flow into the inbox, in an order a crash cannot break: (1) the original file is fetched and stored under a key
 * derived from the flow id, (2) the row is inserted `pending` (unique on org + flow: a second fetch inserts nothing),
 * (3) it is parsed. A crash after (1) leaves an object a rerun overwrites with the same bytes; after (2) a pending row
 * the rerun completes. Returns whether the row is new.
 */
export async function ingestFlow(db: Db, orgId: string, connector: PaConnector, flow: PaFlow): Promise<boolean> {
  const [known] = await db
    .select({ id: inboundInvoices.id, parse_status: inboundInvoices.parse_status })
    .from(inboundInvoices)
    .where(and(eq(inboundInvoices.org_id, orgId), eq(inboundInvoices.flow_id, flow.flowId)));
  if (known) {
    if (known.parse_status === 'pending') await processInbound(db, orgId, known.id);
    return false;
  }
  const got = await connector.getFlow(flow.flowId, 'Original');
  const key = originalKey(orgId, flow.flowId);
  const stored = await getStorage().put(key, got.file, { contentType: got.contentType });
  const [row] = await db
    .insert(inboundInvoices)
    .values({
      org_id: orgId,
      flow_id: flow.flowId,
      storage_key: key,
      sha256: stored.sha256,
      content_type: got.contentType,
      byte_size: stored.size,
      received_at: flow.submittedAt ? new Date(flow.submittedAt) : null,
      imported_at: new Date(),
    })
    .onConflictDoNothing({ target: [inboundInvoices.org_id, inboundInvoices.flow_id] })
    .returning({ id: inboundInvoices.id });
  // Another run inserted it meanwhile: that run parses it.
  if (!row) return false;
  await processInbound(db, orgId, row.id);
  return true;
}

/** Received invoices left `pending` by a run that stopped between insert and parse (the repair sweep). */
async function completePending(db: Db, orgId: string): Promise<number> {
  const rows = await db
    .select({ id: inboundInvoices.id })
    .from(inboundInvoices)
    .where(and(eq(inboundInvoices.org_id, orgId), eq(inboundInvoices.parse_status, 'pending')))
    .orderBy(asc(inboundInvoices.id))
    .limit(PAGE);
  for (const { id } of rows) await processInbound(db, orgId, id);
  return rows.length;
}

/**
 * Reads the flows addressed to the org since its cursor (`POST /v1/flows/search`, direction In, SupplierInvoice),
 * oldest update first, and ingests each. The search is strict (`updatedAfter`), so it asks from 1 ms before the
 * cursor and skips the flows already read at that instant: flows sharing the cursor's timestamp are neither lost nor
 * read twice. The cursor is saved after every page, and only up to the last flow stored: a run that fails (PA down,
 * storage fault) resumes there. A flow the PA refuses to give (not found, invalid answer) is skipped with its error
 * kept in the cursor's last_error; an unreachable, slow or unauthorised PA stops the run (retried by the schedule).
 */
export async function fetchInbound(db: Db, orgId: string, connector: PaConnector): Promise<FetchReport> {
  const report: FetchReport = { created: 0, existing: 0, repaired: await completePending(db, orgId), skipped: 0 };
  const search = { directions: ['In' as const], flowTypes: INBOUND_FLOW_TYPES };
  await walkFlows(
    db,
    orgId,
    'inbound',
    connector,
    search,
    async (flow) => {
      try {
        if (await ingestFlow(db, orgId, connector, flow)) report.created++;
        else report.existing++;
      } catch (err) {
        if (!(err instanceof PaError) || err.retryable || err.kind === 'auth') throw err;
        report.skipped++;
        return `Flow ${flow.flowId} skipped: ${err.message}`;
      }
    },
    MAX_PAGES,
  );
  return report;
}

/** The orgs whose received invoices are fetched: enrolled in the directory, with a PA configured. */
export async function fetchableOrgs(db: Db): Promise<string[]> {
  const rows = await db
    .select({ org_id: einvoicingEnrollments.org_id })
    .from(einvoicingEnrollments)
    .innerJoin(invoiceSettings, eq(invoiceSettings.org_id, einvoicingEnrollments.org_id))
    .where(and(eq(einvoicingEnrollments.status, 'enrolled'), isNotNull(invoiceSettings.pdp_config)));
  return rows.map((r) => r.org_id);
}
